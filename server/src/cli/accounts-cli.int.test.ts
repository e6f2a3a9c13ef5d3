import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLI_TEST_TIMEOUT_MS,
  type CliResult,
  cli,
  lastJsonLine,
  requireBuiltServer,
} from '../../test/cli.js';
import { expectError } from '../../test/expect.js';
import { type TestApp, databaseUrl, startTestApp } from '../../test/harness.js';
import { as, signUp, uniqueEmail } from '../../test/sessions.js';

// The command line's doors: accounts and password-reset links (`users`), the key quota on
// `keys create` and `teams limits`, and the teams a user may belong to on `teams add-owner`.

let app: TestApp;
let url: string;
const PUBLIC_URL = 'https://hooks.example.com';
const run = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  cli(url, args, { PUBLIC_URL, ...env });

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS });

beforeAll(async () => {
  await requireBuiltServer();
  app = await startTestApp();
  url = databaseUrl(app.db.connection);
});
afterAll(() => app.close());

/** The token of a printed link: what follows `#`, which the browser never sends to the server. */
function tokenOf(link: string): string {
  expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password#[A-Za-z0-9_-]{43}$`));
  return link.split('#')[1] ?? '';
}

const setPassword = (token: string, password: string) =>
  app.request('POST', '/api/dashboard/session/reset-password', { body: { token, password } });
const signIn = (email: string, password: string) =>
  app.request('POST', '/api/dashboard/session/sign-in', { body: { email, password } });

/** The link's expiry is `validMs` after a moment between `before` and now. */
function expectValidFor(expiresAt: string, before: number, validMs: number): void {
  expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + validMs);
  expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + validMs);
}

function expectOneLineError(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
}

describe('users create', () => {
  it('creates an account with a link, valid 7 days, that sets its password; with sign-up closed too', async () => {
    const email = uniqueEmail('new');
    const before = Date.now();
    const created = lastJsonLine(
      await run(['users', 'create', '--email', email, '--json'], { SIGNUP: 'closed' }),
    );
    expect(created).toEqual({
      user_id: expect.any(String),
      email,
      url: expect.any(String),
      expires_at: expect.any(String),
    });
    expectValidFor(created.expires_at, before, 7 * 24 * 3600_000);
    expectError(await signIn(email, 'chosen password'), 401, 'UNAUTHORIZED');
    expect((await setPassword(tokenOf(created.url), 'chosen password')).status).toBe(200);
    expect((await signIn(email, 'chosen password')).status).toBe(200);
  });

  it('exits 1 with a one-line error for an email in use or not an email', async () => {
    const user = await signUp(app);
    expectOneLineError(await run(['users', 'create', '--email', user.email]), /has an account already/);
    expectOneLineError(await run(['users', 'create', '--email', 'nobody']), /--email must be an email/);
  });
});

describe('users reset-password', () => {
  it('prints a one-time link, valid 1 hour, on PUBLIC_URL; the newest link alone works', async () => {
    const user = await signUp(app);
    const first = await run(['users', 'reset-password', '--email', user.email.toUpperCase()]);
    expect(first.code).toBe(0);
    const firstLink = first.stdout.trim().split('\n').at(-1) ?? '';
    const before = Date.now();
    const second = lastJsonLine(await run(['users', 'reset-password', '--email', user.email, '--json']));
    expectValidFor(second.expires_at, before, 3600_000);

    const stale = await setPassword(tokenOf(firstLink), 'never this one');
    expect(expectError(stale, 400, 'BAD_REQUEST').details).toEqual({ reason: 'unknown' });
    expect((await setPassword(tokenOf(second.url), 'a new password')).status).toBe(200);
    expectError(await app.request('GET', '/api/dashboard/session', as(user)), 401, 'UNAUTHORIZED');
    expect((await signIn(user.email, 'a new password')).status).toBe(200);
  });

  it('exits 1 with a one-line error for an email without an account', async () => {
    expectOneLineError(
      await run(['users', 'reset-password', '--email', uniqueEmail()]),
      /^error: No user signed up with/,
    );
  });
});

describe('the API key quota on the command line', () => {
  it('is shown and set by teams limits, and keys create stops at it', async () => {
    const teamId = lastJsonLine(await run(['teams', 'create', '--name', 'Keys', '--json'])).id;
    const set = lastJsonLine(
      await run(['teams', 'limits', '--team', teamId, '--set', 'max_api_keys=2', '--json']),
    );
    expect(set.limits.max_api_keys).toBe(2);
    expect(set.overrides.max_api_keys).toBe(2);
    lastJsonLine(await run(['keys', 'create', '--team', teamId, '--json']));
    lastJsonLine(await run(['keys', 'create', '--team', teamId, '--json']));
    expectOneLineError(
      await run(['keys', 'create', '--team', teamId, '--json']),
      /Quota exceeded: the team has 2 active API keys and its limit is 2/,
    );
    const shown = await run(['teams', 'limits', '--team', teamId]);
    expect(shown.stdout).toMatch(/max_api_keys\s+2 \*\n/);
    expect(shown.stdout).toMatch(/, 2 active API keys\n/);
  });

  it('defaults to MAX_API_KEYS', async () => {
    const teamId = lastJsonLine(await run(['teams', 'create', '--name', 'Keys', '--json'])).id;
    lastJsonLine(await run(['keys', 'create', '--team', teamId, '--json'], { MAX_API_KEYS: '1' }));
    expectOneLineError(
      await run(['keys', 'create', '--team', teamId], { MAX_API_KEYS: '1' }),
      /its limit is 1$/,
    );
  });
});

describe('teams add-owner and the teams a user may belong to', () => {
  it('refuses a user in MAX_TEAMS_PER_USER teams already, and makes a member owner whatever the count', async () => {
    const user = await signUp(app);
    const teamId = lastJsonLine(await run(['teams', 'create', '--name', 'Ops', '--json'])).id;
    const limited = { MAX_TEAMS_PER_USER: '1' };
    expectOneLineError(
      await run(['teams', 'add-owner', '--team', teamId, '--email', user.email], limited),
      /Quota exceeded: the user belongs to 1 teams and its limit is 1/,
    );
    const owner = await run(
      ['teams', 'add-owner', '--team', user.teamId, '--email', user.email, '--json'],
      limited,
    );
    expect(lastJsonLine(owner).role).toBe('owner');
  });
});
