import { CreatedInvite, type TeamRole, dataOf } from '@webhook-scheduler/contract';
import { expect } from 'vitest';
import { expectBody, expectError } from './expect.js';
import type { ApiResponse, TestApp } from './harness.js';
import { type TestUser, as } from './sessions.js';

/** What a link's refusal says, as `details.reason`. */
export type LinkReason = 'unknown' | 'used' | 'expired';

export const SIGN_UP = '/api/dashboard/session/sign-up';
export const PASSWORD = 'correct horse battery';

/** Makes an invite as `owner` (of `teamId`, their sign-up team by default); answers the raw response. */
export function invite(
  app: TestApp,
  owner: TestUser,
  email: string,
  options: { teamId?: string; role?: TeamRole } = {},
): Promise<ApiResponse> {
  const body = { email, ...(options.role ? { role: options.role } : {}) };
  return app.request(
    'POST',
    `/api/dashboard/teams/${options.teamId ?? owner.teamId}/invites`,
    as(owner, { body }),
  );
}

/** Makes an invite that must succeed; returns its id and the secret of its link. */
export async function inviteToken(
  app: TestApp,
  owner: TestUser,
  email: string,
  options: { teamId?: string; role?: TeamRole } = {},
): Promise<{ id: string; token: string }> {
  const { data } = expectBody(await invite(app, owner, email, options), 201, dataOf(CreatedInvite).strict());
  return { id: data.invite.id, token: data.token };
}

/** Signs up with an invite link's token. */
export function signUpWith(app: TestApp, email: string, token: string): Promise<ApiResponse> {
  return app.request('POST', SIGN_UP, { body: { email, password: PASSWORD, invite: token } });
}

/** Asserts the 400 BAD_REQUEST of a link that cannot be used, and why. */
export function expectLinkRefused(response: ApiResponse, reason: LinkReason): string {
  const error = expectError(response, 400, 'BAD_REQUEST');
  expect(error.details).toEqual({ reason });
  return error.message;
}
