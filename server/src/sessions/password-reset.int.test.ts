import { Session, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { expectLinkRefused } from '../../test/invites.js';
import { type TestUser, sessionCookieOf, signUp } from '../../test/sessions.js';
import { hashSecretToken } from '../shared/secret-token.js';
import { RESET_LINK_VALID_MS, createPasswordResetLink } from '../users/password-resets.service.js';

const sessionBody = dataOf(Session.strict()).strict();
const RESET = '/api/dashboard/session/reset-password';
const NEW_PASSWORD = 'a new and better password';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A reset link's token, made `agoMs` ago (as `users reset-password` makes them). */
async function linkFor(user: TestUser, agoMs = 0): Promise<string> {
  const madeAt = new Date(Date.now() - agoMs);
  return (await createPasswordResetLink(app.orm.em.fork(), user.userId, RESET_LINK_VALID_MS, madeAt)).token;
}

const reset = (token: string, password = NEW_PASSWORD) =>
  app.request('POST', RESET, { body: { token, password } });
const signIn = (user: TestUser, password: string) =>
  app.request('POST', '/api/dashboard/session/sign-in', { body: { email: user.email, password } });
const me = (cookie: string) => app.request('GET', '/api/dashboard/session', { headers: { cookie } });

describe('a password reset link', () => {
  it('sets the new password, signs the user in, and ends every other session of theirs', async () => {
    const user = await signUp(app);
    const elsewhere = sessionCookieOf(await signIn(user, user.password));
    const response = await reset(await linkFor(user));
    const { data } = expectBody(response, 200, sessionBody);
    expect(data.user.email).toBe(user.email);

    expectError(await me(user.cookie), 401, 'UNAUTHORIZED');
    expectError(await me(elsewhere), 401, 'UNAUTHORIZED');
    expect((await me(sessionCookieOf(response))).status).toBe(200);
    expectError(await signIn(user, user.password), 401, 'UNAUTHORIZED');
    expect((await signIn(user, NEW_PASSWORD)).status).toBe(200);
  });

  it('works once: a second use is 400 BAD_REQUEST, reason used', async () => {
    const user = await signUp(app);
    const token = await linkFor(user);
    expect((await reset(token)).status).toBe(200);
    const message = expectLinkRefused(await reset(token, 'yet another password'), 'used');
    expect(message).toBe(
      'This password reset link was used already: each link works once, so ask for a new one.',
    );
    expect((await signIn(user, NEW_PASSWORD)).status).toBe(200);
  });

  it('works for an hour: a link made 59 minutes ago does, one made 61 minutes ago is refused as expired', async () => {
    const user = await signUp(app);
    const stale = await linkFor(user, 61 * 60_000);
    expect(expectLinkRefused(await reset(stale), 'expired')).toBe(
      'This password reset link has expired: ask for a new one.',
    );
    expect((await reset(await linkFor(user, 59 * 60_000))).status).toBe(200);
  });

  it('stops working when a newer one is made, and unknown or malformed links are refused', async () => {
    const user = await signUp(app);
    const older = await linkFor(user);
    const newer = await linkFor(user);
    expectLinkRefused(await reset(older), 'unknown');
    expectLinkRefused(await reset('x'.repeat(43)), 'unknown');
    expectLinkRefused(await reset('not a token'), 'unknown');
    expect((await reset(newer)).status).toBe(200);
  });

  it('refuses a password that is too short with 400 VALIDATION_ERROR, leaving the link usable', async () => {
    const user = await signUp(app);
    const token = await linkFor(user);
    expect(expectValidationError(await reset(token, 'short'))[0]?.path).toEqual(['password']);
    expect((await reset(token)).status).toBe(200);
  });

  it('is stored only as a hash of its secret', async () => {
    const user = await signUp(app);
    const token = await linkFor(user);
    const rows = await app.sql<{ token_hash: string }>(
      'select token_hash from password_resets where user_id = $1',
      [user.userId],
    );
    expect(rows).toEqual([{ token_hash: hashSecretToken(token) }]);
  });
});
