import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLI_TEST_TIMEOUT_MS,
  type CliResult,
  cli,
  lastJsonLine,
  requireBuiltServer,
} from '../../test/cli.js';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import {
  type TestApp,
  type TestDatabase,
  createTestDatabase,
  databaseUrl,
  startTestApp,
} from '../../test/harness.js';
import { as, signUp } from '../../test/sessions.js';
import { loadConfig } from '../config.js';

let db: TestDatabase;
let url: string;
const run = (...args: string[]): Promise<CliResult> => cli(url, args);

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS });

beforeAll(async () => {
  await requireBuiltServer();
  db = await createTestDatabase();
  url = databaseUrl(db.connection);
});
afterAll(() => db.drop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.concurrent('teams', () => {
  it('creates a team, printing {id, name} as the last line, and lists it with --json', async ({ expect }) => {
    const created = lastJsonLine(await run('teams', 'create', '--name', 'Acme Corp', '--json'));
    expect(created).toEqual({ id: expect.stringMatching(UUID), name: 'Acme Corp' });
    const listed = lastJsonLine(await run('teams', 'list', '--json'));
    expect(listed.teams).toContainEqual({
      id: created.id,
      name: 'Acme Corp',
      created_at: expect.any(String),
    });
  });

  it('exits 1 with a one-line error when the name is blank', async ({ expect }) => {
    const result = await run('teams', 'create', '--name', '   ', '--json');
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--name/)]);
  });
});

describe.concurrent('keys', () => {
  let teamId: string;
  let created: { id: string; key: string; team_id: string; prefix: string };
  beforeAll(async () => {
    teamId = lastJsonLine(await run('teams', 'create', '--name', 'Keys', '--json')).id;
    created = lastJsonLine(await run('keys', 'create', '--team', teamId, '--name', 'ci', '--json'));
  });

  it('creates a key, printing {id, key, team_id, prefix} as the last line with --json', ({ expect }) => {
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^whs_[0-9A-Za-z]{32,}$/),
      team_id: teamId,
      prefix: expect.any(String),
    });
    expect(created.key.startsWith(created.prefix)).toBe(true);
  });

  it('lists the keys of a team with --json, without the secret', async ({ expect }) => {
    const result = await run('keys', 'list', '--team', teamId, '--json');
    expect(lastJsonLine(result).keys).toContainEqual(
      expect.objectContaining({ id: created.id, name: 'ci', prefix: created.prefix, revoked_at: null }),
    );
    expect(result.stdout).not.toContain(created.key);
  });

  it('revokes a key with --json', async ({ expect }) => {
    const other = lastJsonLine(await run('keys', 'create', '--team', teamId, '--json'));
    const revoked = lastJsonLine(await run('keys', 'revoke', other.id, '--json'));
    expect(revoked).toEqual({ id: other.id, revoked_at: expect.any(String) });
    const listed = lastJsonLine(await run('keys', 'list', '--team', teamId, '--json'));
    const row = listed.keys.find((key: { id: string }) => key.id === other.id);
    expect(row.revoked_at).toBe(revoked.revoked_at);
  });

  it.for<[string, string[], RegExp]>([
    ['keys create with a team id that is not a UUID', ['keys', 'create', '--team', 'acme'], /UUID/],
    ['keys list with a team id that is not a UUID', ['keys', 'list', '--team', '42'], /UUID/],
    ['keys revoke with a key id that is not a UUID', ['keys', 'revoke', 'abc'], /UUID/],
    ['keys create for an unknown team', ['keys', 'create', '--team', randomUUID()], /Team not found/],
    ['keys list for an unknown team', ['keys', 'list', '--team', randomUUID()], /Team not found/],
    ['keys revoke of an unknown key', ['keys', 'revoke', randomUUID()], /API key not found/],
  ])('exits 1 with a one-line error for %s', async ([, args, message], { expect }) => {
    const result = await run(...args, '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });
});

describe('teams secret', () => {
  it('shows the signing secret and rotates it, keeping the old one as previous', async () => {
    const teamId = lastJsonLine(await run('teams', 'create', '--name', 'Signing', '--json')).id;
    const shown = lastJsonLine(await run('teams', 'secret', '--team', teamId, '--json'));
    expect(shown).toEqual({
      team_id: teamId,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previous_secret: null,
      previous_expires_at: null,
    });
    const before = Date.now();
    const rotated = lastJsonLine(await run('teams', 'secret', '--team', teamId, '--rotate', '--json'));
    expect(rotated.secret).not.toBe(shown.secret);
    expect(rotated.previous_secret).toBe(shown.secret);
    const grace = new Date(rotated.previous_expires_at).getTime() - before;
    expect(grace).toBeGreaterThan(23.9 * 3600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    expect(lastJsonLine(await run('teams', 'secret', '--team', teamId, '--json')).secret).toBe(
      rotated.secret,
    );
  });

  it('exits 1 for an unknown team', async () => {
    const result = await run('teams', 'secret', '--team', randomUUID());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Team not found/);
  });
});

describe('teams alerts', () => {
  it('shows, sets and turns off the failure-alert URL', async () => {
    const teamId = lastJsonLine(await run('teams', 'create', '--name', 'Alerts', '--json')).id;
    expect(lastJsonLine(await run('teams', 'alerts', '--team', teamId, '--json'))).toEqual({
      team_id: teamId,
      alert_url: null,
    });
    const set = await run('teams', 'alerts', '--team', teamId, '--url', 'https://ops.example.com/alerts');
    expect(set.stdout).toMatch(/Failure alerts are sent to https:\/\/ops\.example\.com\/alerts/);
    expect(lastJsonLine(await run('teams', 'alerts', '--team', teamId, '--json')).alert_url).toBe(
      'https://ops.example.com/alerts',
    );
    const off = lastJsonLine(await run('teams', 'alerts', '--team', teamId, '--off', '--json'));
    expect(off.alert_url).toBeNull();
  });

  it.each([
    ['an invalid URL', ['--url', 'ftp://example.com'], /--url: webhook_url must use http or https/],
    ['both --url and --off', ['--url', 'https://example.com', '--off'], /either --url or --off/],
  ])('exits 1 for %s', async (_, args, message) => {
    const teamId = lastJsonLine(await run('teams', 'create', '--name', 'Alerts', '--json')).id;
    const result = await run('teams', 'alerts', '--team', teamId, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});

describe('teams tracing', () => {
  it('shows, turns on and turns off the traceparent header of a team', async () => {
    const teamId = lastJsonLine(await run('teams', 'create', '--name', 'Traced', '--json')).id;
    expect(lastJsonLine(await run('teams', 'tracing', '--team', teamId, '--json'))).toEqual({
      team_id: teamId,
      send_traceparent: false,
    });
    const on = await run('teams', 'tracing', '--team', teamId, '--on');
    expect(on.stdout).toMatch(/Webhook calls carry a traceparent header/);
    expect(lastJsonLine(await run('teams', 'tracing', '--team', teamId, '--json')).send_traceparent).toBe(
      true,
    );
    expect(
      lastJsonLine(await run('teams', 'tracing', '--team', teamId, '--off', '--json')).send_traceparent,
    ).toBe(false);
  });

  it('exits 1 for both --on and --off', async () => {
    const teamId = lastJsonLine(await run('teams', 'create', '--name', 'Traced', '--json')).id;
    const result = await run('teams', 'tracing', '--team', teamId, '--on', '--off');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/either --on or --off/);
  });
});

describe('a key made by the CLI', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ database: db });
  });
  afterAll(() => app.close());

  it('authenticates against the API until it is revoked', async () => {
    const team = lastJsonLine(await run('teams', 'create', '--name', 'Live', '--json'));
    const key = lastJsonLine(await run('keys', 'create', '--team', team.id, '--json'));

    const before = await app.request('GET', '/api/v1/crons', { key: key.key });
    expect(expectBody(before, 200, bodies.cronPage).pagination.total).toBe(0);

    lastJsonLine(await run('keys', 'revoke', key.id, '--json'));
    const after = await app.request('GET', '/api/v1/crons', { key: key.key });
    expect(expectError(after, 401, 'UNAUTHORIZED').message).toBe('Unauthorized. Invalid or missing API key.');
  });
});

describe('teams add-owner', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ database: db });
  });
  afterAll(() => app.close());

  it('makes a signed-up user an owner of a team made by the CLI', async () => {
    const user = await signUp(app);
    const team = lastJsonLine(await run('teams', 'create', '--name', 'Ops', '--json'));
    const added = lastJsonLine(
      await run('teams', 'add-owner', '--team', team.id, '--email', user.email.toUpperCase(), '--json'),
    );
    expect(added).toEqual({ team_id: team.id, user_id: user.userId, email: user.email, role: 'owner' });
    const teams = await app.request('GET', '/api/dashboard/teams', as(user));
    expect(teams.body.data).toContainEqual(
      expect.objectContaining({ id: team.id, name: 'Ops', role: 'owner' }),
    );
  });

  it.for<[string, () => string[], RegExp]>([
    ['an email nobody signed up with', () => ['--email', 'nobody@example.com'], /No user signed up with/],
    ['a value that is not an email', () => ['--email', 'nobody'], /--email must be an email/],
  ])('exits 1 with a one-line error for %s', async ([, args, message]) => {
    const team = lastJsonLine(await run('teams', 'create', '--name', 'Ops', '--json'));
    const result = await run('teams', 'add-owner', '--team', team.id, ...args(), '--json');
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('exits 1 for an unknown team', async () => {
    const result = await run('teams', 'add-owner', '--team', randomUUID(), '--email', 'a@example.com');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Team not found/);
  });
});

describe('teams limits', () => {
  let teamId: string;
  beforeAll(async () => {
    teamId = lastJsonLine(await run('teams', 'create', '--name', 'Limits', '--json')).id;
  });

  it('shows the defaults, no overrides and the usage with --json', async () => {
    expect(lastJsonLine(await run('teams', 'limits', '--team', teamId, '--json'))).toEqual({
      team_id: teamId,
      limits: loadConfig({}).teamLimits,
      overrides: {
        max_payload_bytes: null,
        max_headers_bytes: null,
        max_active_crons: null,
        max_pending_events: null,
        max_pending_bytes: null,
        min_cron_interval_ms: null,
        requests_per_second: null,
        request_burst: null,
        event_retention_ms: null,
        max_api_keys: null,
      },
      usage: { active_crons: 0, pending_events: 0, pending_bytes: 0, api_keys: 0 },
    });
  });

  it('sets overrides that the API then applies, and name=default clears one', async () => {
    const set = lastJsonLine(
      await run(
        'teams',
        'limits',
        '--team',
        teamId,
        '--set',
        'max_active_crons=1',
        'min_cron_interval=60s',
        'event_retention=0',
        'max_pending_bytes=5368709120',
        '--json',
      ),
    );
    expect(set.limits).toMatchObject({
      max_active_crons: 1,
      max_pending_bytes: 5_368_709_120,
      min_cron_interval_ms: 60_000,
      event_retention_ms: 0,
    });
    expect(set.overrides).toMatchObject({ max_active_crons: 1, max_payload_bytes: null });

    const { key } = lastJsonLine(await run('keys', 'create', '--team', teamId, '--json'));
    const app = await startTestApp({ database: db });
    try {
      const cron = { webhook_url: 'https://example.com/hook', cron_expression: '*/5 * * * *' };
      expectBody(await app.request('POST', '/api/v1/crons', { key, body: cron }), 201, bodies.cron);
      expectError(await app.request('POST', '/api/v1/crons', { key, body: cron }), 403, 'QUOTA_EXCEEDED');
    } finally {
      await app.close();
    }
    const human = await run('teams', 'limits', '--team', teamId, '--set', 'max_active_crons=default');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/max_active_crons\s+1000\n/);
    expect(human.stdout).toMatch(/event_retention_ms\s+0 \*\n/);
    expect(human.stdout).toMatch(/max_pending_bytes\s+5368709120 \*\n/);
    expect(human.stdout).toMatch(
      /Usage: 1 active crons, 0 pending events created through the API holding 0 bytes/,
    );
  });

  it.for<[string, string[], RegExp]>([
    ['an unknown limit', ['--set', 'max_crons=5'], /unknown limit "max_crons"/],
    ['a bad number', ['--set', 'max_active_crons=-1'], /max_active_crons: must be a whole number/],
    ['a bad duration', ['--set', 'min_cron_interval=soon'], /min_cron_interval: must be a duration/],
  ])('exits 1 with a one-line error for %s', async ([, args, message]) => {
    const result = await run('teams', 'limits', '--team', teamId, ...args, '--json');
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('exits 1 for an unknown team', async () => {
    const result = await run('teams', 'limits', '--team', randomUUID(), '--json');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Team not found/);
  });
});
