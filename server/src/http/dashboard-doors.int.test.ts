import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../test/expect.js';
import { type ApiResponse, type TestApp, startTestApp } from '../../test/harness.js';
import { PASSWORD, SIGN_UP } from '../../test/invites.js';
import { type TestUser, as, sessionCookieOf, signUp, uniqueEmail } from '../../test/sessions.js';

// The doors of /api/dashboard: its rate limit (per session, and per client address before sign-in)
// and the 16 KiB cap on the bodies anyone may send.

const SIGN_IN = '/api/dashboard/session/sign-in';
const MODE = '/api/dashboard/session/sign-up-mode';

let limited: TestApp;
let app: TestApp;
beforeAll(async () => {
  // 1 request per second in bursts of 3, and X-Forwarded-For believed: each test has its own addresses.
  limited = await startTestApp({
    teamLimits: { requests_per_second: 1, request_burst: 3 },
    trustProxy: true,
  });
  app = await startTestApp({ database: limited.db });
});
afterAll(async () => {
  await app.close();
  await limited.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

async function signUpFrom(address: string): Promise<TestUser & { address: string }> {
  const email = uniqueEmail();
  const response = await limited.request('POST', SIGN_UP, {
    body: { email, password: PASSWORD },
    ...from(address),
  });
  expect(response.status).toBe(201);
  const { user, teams, csrf_token } = response.body.data;
  const cookie = sessionCookieOf(response);
  return {
    userId: user.id,
    email,
    password: PASSWORD,
    teamId: teams[0].id,
    cookie,
    csrf: csrf_token,
    address,
  };
}

function expectLimited(response: ApiResponse): void {
  const error = expectError(response, 429, 'RATE_LIMITED');
  expect(error.message).toBe('Rate limit exceeded: retry in 1 second');
  expect(response.headers.get('retry-after')).toBe('1');
  expect(response.headers.get('ratelimit-remaining')).toBe('0');
}

describe('the dashboard rate limit', () => {
  it('holds per session: past its burst a route answers 429 RATE_LIMITED, another session goes on', async () => {
    const user = await signUpFrom('203.0.113.10');
    const other = await signUpFrom('203.0.113.11');
    const session = () => limited.request('GET', '/api/dashboard/session', as(user, from(user.address)));
    for (let i = 0; i < 3; i++) expect((await session()).status).toBe(200);
    expectLimited(await session());
    // Same address, another session: its own allowance.
    const theirs = await limited.request('GET', '/api/dashboard/teams', as(other, from(user.address)));
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('ratelimit-limit')).toBe('1');
  });

  it('holds per client address before sign-in, counting an IPv6 client by its /64', async () => {
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa::3'])
      expect((await limited.request('GET', MODE, from(address))).status).toBe(200);
    expectLimited(await limited.request('GET', MODE, from('2001:db8:1:2:ffff:ffff:ffff:ffff')));
    expect((await limited.request('GET', MODE, from('2001:db8:1:3::1'))).status).toBe(200);
    expect((await limited.request('GET', MODE, from('198.51.100.7'))).status).toBe(200);
  });

  it('refuses before the body is read: an over-limit sign-in with a broken body is a 429, not a 400', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < 3; i++) await limited.request('GET', MODE, from(address));
    expectLimited(await limited.request('POST', SIGN_IN, { body: '{"email":', ...from(address) }));
    const [counted] = await limited.sql('select key from auth_throttle where key like $1', [`%${address}%`]);
    expect(counted).toBeUndefined();
  });
});

/** Sends a request by hand: its head, then only `sent` of its body, and reads the whole answer. */
const sockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
function partialRequest(url: string, path: string, contentLength: number, sent: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  sockets.push(socket);
  socket.setEncoding('latin1');
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${contentLength}\r\n\r\n${sent}`,
  );
  let received = '';
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      received += chunk;
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) resolve(received);
    });
  });
}

/** A sign-in body of exactly `bytes` bytes, padded in its password. */
function signInBody(bytes: number): string {
  const empty = JSON.stringify({ email: 'ada@example.com', password: '' });
  return JSON.stringify({ email: 'ada@example.com', password: 'p'.repeat(bytes - empty.length) });
}

describe('bodies without a session', () => {
  it.each([SIGN_IN, SIGN_UP])(
    'on %s above 16 KiB are refused with 413 from their Content-Length, before the body is sent',
    async (path) => {
      // Only 10 of the 1 MiB announced are sent: an answer proves none of the rest was waited for.
      const answer = await partialRequest(app.url, path, 1024 * 1024, '{"email":');
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      const body = JSON.parse(answer.split('\r\n\r\n')[1] ?? '') as {
        error: { code: string; message: string };
      };
      expect(body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Validation failed: request body is larger than the 16384 byte limit',
      });
    },
  );

  it('are read up to 16 KiB: one of exactly 16,384 bytes reaches validation, one byte more is 413', async () => {
    const at = await app.request('POST', SIGN_IN, { body: signInBody(16 * 1024) });
    expect(expectValidationError(at)[0]?.path).toEqual(['password']);
    expectError(
      await app.request('POST', SIGN_IN, { body: signInBody(16 * 1024 + 1) }),
      413,
      'VALIDATION_ERROR',
    );
  });

  it('are refused once 16 KiB have arrived when sent without a Content-Length', async () => {
    const chunks = [signInBody(12 * 1024), ' '.repeat(12 * 1024)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const response = await fetch(app.url + SIGN_IN, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
  });

  it('do not cap a signed-in route: a 20 KiB team name is refused by its validation, not its size', async () => {
    const user = await signUp(app);
    const response = await app.request(
      'POST',
      '/api/dashboard/teams',
      as(user, { body: { name: 'n'.repeat(20_000) } }),
    );
    expect(expectValidationError(response)[0]?.path).toEqual(['name']);
  });
});
