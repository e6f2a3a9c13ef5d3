import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiResponse, RequestOptions, TestApp } from './harness.js';

/** A signed-up user with a live session. */
export interface TestUser {
  userId: string;
  email: string;
  password: string;
  /** The team sign-up created, owned by the user. */
  teamId: string;
  /** `whs_session=…`, as a Cookie header. */
  cookie: string;
  csrf: string;
}

/** A fresh email address. */
export function uniqueEmail(name = 'user'): string {
  return `${name}-${randomBytes(4).toString('hex')}@example.com`;
}

/** The `name=value` of the session cookie a response sets; fails the test when it sets none. */
export function sessionCookieOf(response: ApiResponse): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('whs_session='));
  if (!cookie)
    return expect.fail(`no session cookie in a ${response.status}: ${response.text.slice(0, 300)}`);
  return cookie.split(';')[0] ?? '';
}

export async function signUp(app: TestApp, email = uniqueEmail()): Promise<TestUser> {
  const password = 'correct horse battery';
  const response = await app.request('POST', '/api/dashboard/session/sign-up', { body: { email, password } });
  if (response.status !== 201) expect.fail(`sign-up answered ${response.status}: ${response.text}`);
  const { user, teams, csrf_token } = response.body.data;
  return {
    userId: user.id,
    email,
    password,
    teamId: teams[0].id,
    cookie: sessionCookieOf(response),
    csrf: csrf_token,
  };
}

/** Request options that send the user's session cookie and CSRF token, plus `headers`. */
export function as(user: TestUser, options: RequestOptions = {}): RequestOptions {
  return { ...options, headers: { cookie: user.cookie, 'x-csrf-token': user.csrf, ...options.headers } };
}

/** A new owner with a second user added to the owner's team as a member. */
export async function signUpOwnerAndMember(app: TestApp): Promise<{ owner: TestUser; member: TestUser }> {
  const owner = await signUp(app);
  const member = await signUp(app);
  const added = await app.request(
    'POST',
    `/api/dashboard/teams/${owner.teamId}/members`,
    as(owner, { body: { email: member.email } }),
  );
  if (added.status !== 201) expect.fail(`adding a member answered ${added.status}: ${added.text}`);
  return { owner, member };
}
