import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { cronBody, eventBody, makeEvent, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { expectQuota, payloadOf, teamWithLimits } from '../../test/limits.js';
import { as, signUp } from '../../test/sessions.js';
import { loadConfig } from '../config.js';
import type { LimitOverrides } from './team-limits.rules.js';
import { readTeamLimits, setTeamLimits } from './team-limits.service.js';
import { teamLimitsReport, teamUsage } from '../usage/team-usage.js';
import { NotFoundError } from '../errors.js';
import { teamRetention } from './team-retention.js';

/** The configured defaults (their values are checked in limits.rules.test.ts). */
const DEFAULTS = loadConfig({}).teamLimits;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const teamWith = (overrides: LimitOverrides) => teamWithLimits(app, overrides);

const post = (team: TestTeam, path: string, body: unknown) =>
  app.request('POST', path, { key: team.key, body });

describe('the payload limit (64 KiB by default)', () => {
  it.each([
    ['/api/v1/events', eventBody, bodies.event],
    ['/api/v1/crons', cronBody, bodies.cron],
  ] as const)(
    'on %s accepts a payload below and at 65,536 bytes and refuses one above on payload',
    async (path, body, schema) => {
      const team = await app.createTeam();
      expectBody(await post(team, path, body({ payload: payloadOf(65_535) })), 201, schema);
      expectBody(await post(team, path, body({ payload: payloadOf(65_536) })), 201, schema);
      const issues = expectValidationError(await post(team, path, body({ payload: payloadOf(65_537) })));
      expect(issues).toEqual([
        { path: ['payload'], message: 'payload is 65537 bytes as JSON; the limit is 65536 bytes' },
      ]);
    },
  );

  it('counts a structured payload as its compact JSON and follows a team override', async () => {
    const team = await teamWith({ max_payload_bytes: 20 });
    const at = { items: [1, 2, 3, 'abc'] }; // {"items":[1,2,3,"abc"]} is 23 bytes
    expectValidationError(await post(team, '/api/v1/events', eventBody({ payload: at })));
    await setTeamLimits(app.orm.em.fork(), team.teamId, { max_payload_bytes: 23 }, new Date());
    expectBody(await post(team, '/api/v1/events', eventBody({ payload: at })), 201, bodies.event);
  });

  it('applies to PUT as well', async () => {
    const team = await teamWith({ max_payload_bytes: 10 });
    const created = expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event).data;
    const put = await app.request('PUT', `/api/v1/events/${created.id}`, {
      key: team.key,
      body: eventBody({ payload: payloadOf(11) }),
    });
    expect(expectValidationError(put)[0]?.path).toEqual(['payload']);
  });
});

describe('the headers limit (16 KiB of names and values together by default)', () => {
  // Two headers of names "a" and "b": 2 bytes of names, the rest in values of at most 8192.
  const headersOf = (bytes: number) => ({ a: 'v'.repeat(8192), b: 'w'.repeat(bytes - 2 - 8192) });

  it.each([
    ['/api/v1/events', eventBody, bodies.event],
    ['/api/v1/crons', cronBody, bodies.cron],
  ] as const)(
    'on %s accepts below and at 16,384 bytes and refuses above on headers',
    async (path, body, schema) => {
      const team = await app.createTeam();
      expectBody(await post(team, path, body({ headers: headersOf(16_383) })), 201, schema);
      expectBody(await post(team, path, body({ headers: headersOf(16_384) })), 201, schema);
      const issues = expectValidationError(await post(team, path, body({ headers: headersOf(16_385) })));
      expect(issues).toEqual([
        {
          path: ['headers'],
          message: 'headers total 16385 bytes (names and values); the limit is 16384 bytes',
        },
      ]);
    },
  );

  it('names payload and headers together when both are over', async () => {
    const team = await teamWith({ max_payload_bytes: 5, max_headers_bytes: 5 });
    const issues = expectValidationError(
      await post(team, '/api/v1/crons', cronBody({ payload: payloadOf(6), headers: { abc: 'def' } })),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['payload'], ['headers']]);
  });
});

describe('the active crons quota', () => {
  it('accepts crons below and up to the limit, then refuses with 403 QUOTA_EXCEEDED', async () => {
    const team = await teamWith({ max_active_crons: 2 });
    expectBody(await post(team, '/api/v1/crons', cronBody()), 201, bodies.cron);
    const second = expectBody(await post(team, '/api/v1/crons', cronBody()), 201, bodies.cron).data;
    const refused = expectQuota(await post(team, '/api/v1/crons', cronBody()), {
      quota: 'active_crons',
      limit: 2,
      current: 2,
    });
    expect(refused.message).toBe('Quota exceeded: the team has 2 active crons and its limit is 2');
    expect((await app.sql('select id from crons where team_id = $1', [team.teamId])).length).toBe(2);

    // An inactive cron does not count, and cannot be switched on while the quota is full.
    const idle = expectBody(
      await post(team, '/api/v1/crons', cronBody({ is_active: false })),
      201,
      bodies.cron,
    ).data;
    const put = (id: string, body: object) =>
      app.request('PUT', `/api/v1/crons/${id}`, { key: team.key, body });
    expectQuota(await put(idle.id, cronBody({ is_active: true })), {
      quota: 'active_crons',
      limit: 2,
      current: 2,
    });
    // An active cron stays editable at the limit.
    expectBody(await put(second.id, cronBody({ cron_expression: '0 * * * *' })), 200, bodies.cron);

    expect((await app.request('DELETE', `/api/v1/crons/${second.id}`, { key: team.key })).status).toBe(200);
    expectBody(await put(idle.id, cronBody({ is_active: true })), 200, bodies.cron);
    expect(await teamUsage(app.orm.em.fork(), team.teamId)).toMatchObject({ active_crons: 2 });
  });

  it('lets only one of concurrent creates take the last place', async () => {
    const team = await teamWith({ max_active_crons: 3 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => post(team, '/api/v1/crons', cronBody())),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 403)).toHaveLength(5);
  });
});

describe('the pending events quota', () => {
  it('accepts events below and up to the limit, then refuses with 403 QUOTA_EXCEEDED and creates nothing', async () => {
    const team = await teamWith({ max_pending_events: 3 });
    for (let i = 0; i < 3; i++)
      expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event);
    expectQuota(await post(team, '/api/v1/events', eventBody()), {
      quota: 'pending_events',
      limit: 3,
      current: 3,
    });
    const [row] = await app.sql<{ n: string }>('select count(*) as n from events where team_id = $1', [
      team.teamId,
    ]);
    expect(Number(row?.n)).toBe(3);
  });

  it('counts exactly: a delivered, failed or deleted event frees its place, cron-made events never take one', async () => {
    const team = await teamWith({ max_pending_events: 2 });
    const em = app.orm.em.fork();
    const [first] = await Promise.all([
      post(team, '/api/v1/events', eventBody()).then((r) => expectBody(r, 201, bodies.event).data),
      post(team, '/api/v1/events', eventBody()),
    ]);
    await makeEvents(em, team.teamId, 5, () => ({ cronId: null, status: 'success' }));
    expectQuota(await post(team, '/api/v1/events', eventBody()), {
      quota: 'pending_events',
      limit: 2,
      current: 2,
    });

    // Claimed (leased in the queue), it counts until its outcome, written like the scheduler's.
    await app.sql(`update event_queue set lease_token = gen_random_uuid() where event_id = $1`, [first?.id]);
    expect((await teamUsage(em, team.teamId)).pending_events).toBe(2);
    await app.sql(`delete from event_queue where event_id = $1`, [first?.id]);
    await app.sql(`update events set status = 'success' where id = $1`, [first?.id]);
    const third = expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event).data;
    expect(await app.request('DELETE', `/api/v1/events/${third.id}`, { key: team.key })).toMatchObject({
      status: 200,
    });
    expect((await teamUsage(em, team.teamId)).pending_events).toBe(1);

    // A cron's pending events and other teams' events do not count.
    const cron = expectBody(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '* * * * * *' })),
      201,
      bodies.cron,
    ).data;
    await makeEvent(em, (await app.createTeam()).teamId);
    const [cronMade] = await app.sql<{ n: string }>(
      `select count(*) as n from events where cron_id = $1 and status = 'pending'`,
      [cron.id],
    );
    expect(Number(cronMade?.n)).toBeGreaterThan(0);
    expect((await teamUsage(em, team.teamId)).pending_events).toBe(1);
    expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event);
  });
});

describe('the shortest cron interval', () => {
  it('is 1 s by default: a cron every second is accepted', async () => {
    const team = await app.createTeam();
    expectBody(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '* * * * * *' })),
      201,
      bodies.cron,
    );
  });

  it('refuses a schedule firing more often than the team allows on cron_expression, at and above it are fine', async () => {
    const team = await teamWith({ min_cron_interval_ms: 60_000 });
    expectBody(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '* * * * *' })),
      201,
      bodies.cron,
    );
    expectBody(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '*/2 * * * *' })),
      201,
      bodies.cron,
    );
    const issues = expectValidationError(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '*/30 * * * * *' })),
    );
    expect(issues).toEqual([
      {
        path: ['cron_expression'],
        message: 'cron_expression fires 30s apart at its closest; the shortest interval allowed is 60s',
      },
    ]);
  });
});

describe('readTeamLimits', () => {
  it('gives the defaults under the team’s own overrides, and a cleared override goes back to the default', async () => {
    const team = await teamWith({ event_retention_ms: 0, max_active_crons: 7 });
    const em = app.orm.em.fork();
    const defaults = { ...(await readTeamLimits(em, (await app.createTeam()).teamId, DEFAULTS)) };
    expect(defaults).toEqual(DEFAULTS);
    expect(await readTeamLimits(em, team.teamId, DEFAULTS)).toEqual({
      ...DEFAULTS,
      event_retention_ms: 0,
      max_active_crons: 7,
    });
    await setTeamLimits(em, team.teamId, { max_active_crons: null }, new Date());
    expect(await readTeamLimits(em, team.teamId, DEFAULTS)).toEqual({ ...DEFAULTS, event_retention_ms: 0 });
  });

  it('are set for an existing team only: another id is not found, and nothing is written', async () => {
    const em = app.orm.em.fork();
    const unknown = crypto.randomUUID();
    await expect(setTeamLimits(em, unknown, { max_active_crons: 3 }, new Date())).rejects.toThrow(
      NotFoundError,
    );
    await expect(teamLimitsReport(em, unknown, DEFAULTS)).rejects.toThrow(NotFoundError);
  });
});

describe('the dashboard’s team limits', () => {
  it('shows a member the limits in force and the usage, and another team as not found', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    await setTeamLimits(app.orm.em.fork(), owner.teamId, { max_active_crons: 4 }, new Date());
    const path = `/api/dashboard/teams/${owner.teamId}/limits`;
    const created = await app.request(
      'POST',
      '/api/v1/crons',
      as(owner, { body: cronBody(), headers: { 'x-team-id': owner.teamId } }),
    );
    expect(created.status).toBe(201);
    const shown = await app.request('GET', path, as(owner));
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      data: {
        // The test app's rate limit is set out of reach of the other tests.
        limits: { ...DEFAULTS, requests_per_second: 100_000, request_burst: 100_000, max_active_crons: 4 },
        usage: { active_crons: 1, pending_events: 0, pending_bytes: 0, api_keys: 0 },
      },
    });
    expectError(await app.request('GET', path, as(stranger)), 404, 'NOT_FOUND');
  });
});

describe("a team's retention of finished events", () => {
  it('is its own event_retention when set, the configured EVENT_RETENTION otherwise', async () => {
    const keeping = await teamWith({ event_retention_ms: 0 });
    const plain = await app.createTeam();
    const retentionOf = teamRetention(app.orm, DEFAULTS);
    expect(await retentionOf(keeping.teamId)).toBe(0);
    expect(await retentionOf(plain.teamId)).toBe(DEFAULTS.event_retention_ms);
  });
});
