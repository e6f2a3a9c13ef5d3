import { Session, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { PASSWORD, SIGN_UP, invite, inviteToken, signUpWith } from '../../test/invites.js';
import { as, signUp, uniqueEmail } from '../../test/sessions.js';

// One database served in each SIGNUP mode: `open` makes the owners, who invite.
const sessionBody = dataOf(Session.strict()).strict();
let open: TestApp;
let byInvite: TestApp;
let closed: TestApp;
beforeAll(async () => {
  open = await startTestApp();
  byInvite = await startTestApp({ database: open.db, accounts: { signUp: 'invite' } });
  closed = await startTestApp({ database: open.db, accounts: { signUp: 'closed' } });
});
afterAll(async () => {
  await closed.close();
  await byInvite.close();
  await open.close();
});

const plainSignUp = (app: TestApp, email: string) =>
  app.request('POST', SIGN_UP, { body: { email, password: PASSWORD } });

async function userCount(email: string): Promise<number> {
  return (await open.sql('select id from users where email = $1', [email])).length;
}

describe('the sign-up mode', () => {
  it.each([
    ['open', () => open],
    ['invite', () => byInvite],
    ['closed', () => closed],
  ] as const)('%s is told to anyone, without a session', async (mode, app) => {
    const response = await app().request('GET', '/api/dashboard/session/sign-up-mode');
    expect(expectBody(response, 200, dataOf(z.object({ mode: z.string() })).strict()).data).toEqual({ mode });
  });
});

describe('SIGNUP=open', () => {
  it('signs up anyone with a team of their own, and a person with an invite into its team only', async () => {
    const owner = await signUp(open);
    expect(owner.teamId).toBeTruthy();
    const email = uniqueEmail();
    const { token } = await inviteToken(open, owner, email);
    const { data } = expectBody(await signUpWith(open, email, token), 201, sessionBody);
    expect(data.teams.map((team) => team.id)).toEqual([owner.teamId]);
  });
});

describe('SIGNUP=invite', () => {
  it('refuses a sign-up without an invite with 403 FORBIDDEN, creating nothing', async () => {
    const email = uniqueEmail();
    const error = expectError(await plainSignUp(byInvite, email), 403, 'FORBIDDEN');
    expect(error.message).toBe(
      'Sign-up is by invitation only: open the invite link a team owner made for you.',
    );
    expect(await userCount(email)).toBe(0);
  });

  it('signs up the person an invite is for into its team', async () => {
    const owner = await signUp(open);
    const email = uniqueEmail();
    const { token } = await inviteToken(byInvite, owner, email);
    const { data } = expectBody(await signUpWith(byInvite, email, token), 201, sessionBody);
    expect(data.user.email).toBe(email);
    expect(data.teams).toEqual([expect.objectContaining({ id: owner.teamId, role: 'member' })]);
  });

  it('still checks the body first: a short password is 400 VALIDATION_ERROR', async () => {
    const body = { email: uniqueEmail(), password: 'short' };
    expect(expectValidationError(await byInvite.request('POST', SIGN_UP, { body }))[0]?.path).toEqual([
      'password',
    ]);
  });
});

describe('SIGNUP=closed', () => {
  it('refuses every sign-up with 403 FORBIDDEN, with an invite too', async () => {
    const owner = await signUp(open);
    const email = uniqueEmail();
    const { token } = await inviteToken(open, owner, email);
    const error = expectError(await signUpWith(closed, email, token), 403, 'FORBIDDEN');
    expect(error.message).toBe('Sign-up is closed: ask the operator of this service to create your account.');
    expectError(await plainSignUp(closed, uniqueEmail()), 403, 'FORBIDDEN');
    expect(await userCount(email)).toBe(0);
  });

  it('invites only people with an account, who join by accepting', async () => {
    const owner = await signUp(open);
    const user = await signUp(open);
    const issues = expectValidationError(await invite(closed, owner, uniqueEmail()));
    expect(issues).toEqual([
      {
        path: ['email'],
        message: 'no account uses this email, and sign-up is closed: the operator creates accounts',
      },
    ]);
    const { token } = await inviteToken(closed, owner, user.email);
    const accepted = await closed.request(
      'POST',
      '/api/dashboard/invites/accept',
      as(user, { body: { token } }),
    );
    expect(accepted.status).toBe(200);
  });
});
