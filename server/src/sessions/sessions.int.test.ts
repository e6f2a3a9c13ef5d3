import { Session, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { as, sessionCookieOf, signUp, uniqueEmail } from '../../test/sessions.js';
import { hashSessionToken } from './session.rules.js';

const sessionBody = dataOf(Session.strict()).strict();
const SIGN_UP = '/api/dashboard/session/sign-up';
const SIGN_IN = '/api/dashboard/session/sign-in';
const SIGN_OUT = '/api/dashboard/session/sign-out';
const SESSION = '/api/dashboard/session';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('sign-up', () => {
  it('creates the user with a first team they own, signs them in, and answers 201', async () => {
    const email = uniqueEmail('ada');
    const response = await app.request('POST', SIGN_UP, {
      body: { email, password: 'correct horse battery' },
    });
    const { data } = expectBody(response, 201, sessionBody);
    expect(data.user.email).toBe(email);
    expect(data.teams).toEqual([
      {
        id: expect.any(String),
        name: `${email.split('@')[0]}'s team`,
        role: 'owner',
        created_at: expect.any(String),
      },
    ]);
    expect(data.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = await app.request('GET', SESSION, { headers: { cookie: sessionCookieOf(response) } });
    expect(expectBody(me, 200, sessionBody).data).toEqual(data);
  });

  it('sets an httpOnly, SameSite=Lax session cookie for the whole site, not Secure over plain HTTP', async () => {
    const response = await app.request('POST', SIGN_UP, {
      body: { email: uniqueEmail(), password: 'correct horse battery' },
    });
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^whs_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=2592000/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('stores a hash of the session token and a scrypt hash of the password, never either secret', async () => {
    const user = await signUp(app);
    const token = user.cookie.split('=')[1] ?? '';
    const sessions = await app.sql<{ token_hash: string }>(
      'select token_hash from sessions where user_id = $1',
      [user.userId],
    );
    expect(sessions).toEqual([{ token_hash: hashSessionToken(token) }]);
    const [row] = await app.sql<{ password_hash: string }>('select password_hash from users where id = $1', [
      user.userId,
    ]);
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    expect(row?.password_hash).not.toContain(user.password);
  });

  it('stores the email lower-cased and trimmed', async () => {
    const email = uniqueEmail('Grace');
    const response = await app.request('POST', SIGN_UP, {
      body: { email: `  ${email.toUpperCase()} `, password: 'correct horse battery' },
    });
    expect(expectBody(response, 201, sessionBody).data.user.email).toBe(email.toLowerCase());
  });

  it('answers 409 CONFLICT pointing to sign-in when the email is taken, in any case', async () => {
    const user = await signUp(app);
    const response = await app.request('POST', SIGN_UP, {
      body: { email: user.email.toUpperCase(), password: 'another password' },
    });
    expect(expectError(response, 409, 'CONFLICT').message).toMatch(/sign in instead/);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['the email is not an email', { email: 'ada', password: 'correct horse battery' }, ['email']],
    [
      'the password is shorter than 8 characters',
      { email: 'a@example.com', password: 'short' },
      ['password'],
    ],
    ['the password is missing', { email: 'a@example.com' }, ['password']],
    ['a field is unknown', { email: 'a@example.com', password: 'correct horse', admin: true }, ['admin']],
  ])('answers 400 VALIDATION_ERROR when %s', async (_, body, path) => {
    const error = expectError(await app.request('POST', SIGN_UP, { body }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ path })]);
  });

  it('answers 400 for a form post, which another site could send without the JSON content type', async () => {
    const response = await app.request('POST', SIGN_UP, {
      body: 'email=a%40example.com&password=correct+horse',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
  });
});

describe('sign-in', () => {
  it('starts a new session with the right password, whatever the email case', async () => {
    const user = await signUp(app);
    const response = await app.request('POST', SIGN_IN, {
      body: { email: user.email.toUpperCase(), password: user.password },
    });
    const { data } = expectBody(response, 200, sessionBody);
    expect(data.user.id).toBe(user.userId);
    expect(sessionCookieOf(response)).not.toBe(user.cookie);
  });

  it('answers the same 401 for a wrong password and for an email without an account', async () => {
    const user = await signUp(app);
    const wrongPassword = await app.request('POST', SIGN_IN, {
      body: { email: user.email, password: 'nope nope' },
    });
    const noAccount = await app.request('POST', SIGN_IN, {
      body: { email: uniqueEmail('nobody'), password: 'nope nope' },
    });
    for (const response of [wrongPassword, noAccount]) {
      expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe('Email or password is incorrect.');
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
    expect(wrongPassword.body).toEqual(noAccount.body);
  });

  it('answers 400 VALIDATION_ERROR when the password is empty', async () => {
    const response = await app.request('POST', SIGN_IN, { body: { email: 'a@example.com', password: '' } });
    expectError(response, 400, 'VALIDATION_ERROR');
  });
});

describe('a session', () => {
  it('answers 401 on GET /session without a cookie or with an unknown one', async () => {
    for (const cookie of [undefined, `whs_session=${'A'.repeat(43)}`, 'whs_session=garbage']) {
      const response = await app.request('GET', SESSION, cookie ? { headers: { cookie } } : {});
      expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe('Sign in to continue.');
    }
  });

  it('ends on sign-out: the cookie is cleared and no longer works', async () => {
    const user = await signUp(app);
    const response = await app.request('POST', SIGN_OUT, as(user));
    expect(expectBody(response, 200, dataOf(z.object({ success: z.boolean() }))).data).toEqual({
      success: true,
    });
    expect(response.headers.getSetCookie()[0]).toMatch(/^whs_session=; .*Expires=Thu, 01 Jan 1970/);
    expectError(await app.request('GET', SESSION, as(user)), 401, 'UNAUTHORIZED');
  });

  it('refuses sign-out with 403 FORBIDDEN without the CSRF token, or with another session’s', async () => {
    const user = await signUp(app);
    const other = await signUp(app);
    for (const csrf of [undefined, other.csrf, '']) {
      const headers: Record<string, string> = { cookie: user.cookie };
      if (csrf !== undefined) headers['x-csrf-token'] = csrf;
      const response = await app.request('POST', SIGN_OUT, { headers });
      expect(expectError(response, 403, 'FORBIDDEN').message).toMatch(/CSRF/);
    }
    expectBody(await app.request('GET', SESSION, as(user)), 200, sessionBody);
  });

  it('answers 401 once it expired', async () => {
    const user = await signUp(app);
    await app.sql(`update sessions set expires_at = now() - interval '1 second' where user_id = $1`, [
      user.userId,
    ]);
    expectError(await app.request('GET', SESSION, as(user)), 401, 'UNAUTHORIZED');
  });

  it('moves its idle expiry forward when used after a while', async () => {
    const user = await signUp(app);
    await app.sql(
      `update sessions set last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 hour'
       where user_id = $1`,
      [user.userId],
    );
    expectBody(await app.request('GET', SESSION, as(user)), 200, sessionBody);
    const [row] = await app.sql<{ days: number }>(
      `select extract(epoch from expires_at - now()) / 86400 as days from sessions where user_id = $1`,
      [user.userId],
    );
    expect(Number(row?.days)).toBeGreaterThan(6.9);
  });
});

describe('the session cookie behind a trusted HTTPS proxy', () => {
  it('is Secure when the proxy says the request came over HTTPS', async () => {
    const proxied = await startTestApp({ database: app.db, trustProxy: 'loopback' });
    try {
      const response = await proxied.request('POST', SIGN_UP, {
        body: { email: uniqueEmail(), password: 'correct horse battery' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.headers.getSetCookie()[0]).toMatch(/; Secure/);
    } finally {
      await proxied.close();
    }
  });
});
