import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { signUp, uniqueEmail } from '../../test/sessions.js';

const SIGN_IN = '/api/dashboard/session/sign-in';
const SIGN_UP = '/api/dashboard/session/sign-up';
const window = { windowMs: 15 * 60_000 };
const limits = {
  signInPerEmail: { hits: 3, ...window },
  signInPerAddress: { hits: 8, ...window },
  signUpPerAddress: { hits: 6, ...window },
};

// Two API processes over one database: the limits must hold across both.
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await startTestApp({ limits });
  second = await startTestApp({ limits, database: first.db });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const signIn = (app: TestApp, email: string, password: string) =>
  app.request('POST', SIGN_IN, { body: { email, password } });

describe('sign-in attempts', () => {
  it('are limited per email across API processes, refusing even the right password with 429', async () => {
    await first.sql('delete from auth_throttle');
    const user = await signUp(first);
    expectError(await signIn(first, user.email, 'wrong one'), 401, 'UNAUTHORIZED');
    expectError(await signIn(second, user.email, 'wrong two'), 401, 'UNAUTHORIZED');
    expectError(await signIn(first, user.email, 'wrong three'), 401, 'UNAUTHORIZED');

    const refused = await signIn(second, user.email, user.password);
    const error = expectError(refused, 429, 'TOO_MANY_REQUESTS');
    expect(error.message).toMatch(/^Too many sign-in attempts\. Try again in 1[45] minutes\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it('are limited the same for an email without an account, so the limit reveals nothing', async () => {
    await first.sql('delete from auth_throttle');
    const email = uniqueEmail('ghost');
    for (let i = 0; i < 3; i++) expectError(await signIn(first, email, 'guess'), 401, 'UNAUTHORIZED');
    expectError(await signIn(second, email, 'guess'), 429, 'TOO_MANY_REQUESTS');
  });

  it('count concurrent attempts one by one, so a burst cannot slip past the limit', async () => {
    await first.sql('delete from auth_throttle');
    const email = uniqueEmail('burst');
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signIn(i % 2 ? first : second, email, `guess ${i}`)),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it('start over for an email after a successful sign-in', async () => {
    await first.sql('delete from auth_throttle');
    const user = await signUp(first);
    expectError(await signIn(first, user.email, 'wrong'), 401, 'UNAUTHORIZED');
    expectError(await signIn(first, user.email, 'wrong'), 401, 'UNAUTHORIZED');
    expect((await signIn(second, user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await signIn(first, user.email, 'wrong'), 401, 'UNAUTHORIZED');
  });

  it('are limited per client address across emails', async () => {
    await first.sql('delete from auth_throttle');
    const statuses = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await signIn(i % 2 ? first : second, uniqueEmail(), 'x')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });

  it('are allowed again once the window has passed', async () => {
    await first.sql('delete from auth_throttle');
    const email = uniqueEmail('patient');
    for (let i = 0; i < 4; i++) await signIn(first, email, 'guess');
    await first.sql(`update auth_throttle set window_started_at = now() - interval '16 minutes'`);
    expectError(await signIn(second, email, 'guess'), 401, 'UNAUTHORIZED');
  });
});

describe('sign-ups', () => {
  it('are limited per client address', async () => {
    await first.sql('delete from auth_throttle');
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const response = await (i % 2 ? first : second).request('POST', SIGN_UP, {
        body: { email: uniqueEmail(), password: 'correct horse battery' },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
  });
});
