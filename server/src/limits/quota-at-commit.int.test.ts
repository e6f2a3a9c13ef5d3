import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { cronBody, eventBody } from '../../test/factories.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { expectQuota, payloadOf, teamWithLimits } from '../../test/limits.js';
import { eventually } from '../../test/receiver.js';
import { lockTeamQuotas } from './quota-locks.js';
import type { LimitOverrides } from './team-limits.rules.js';
import { teamUsage } from '../usage/team-usage.js';

// Quotas are checked as the transaction commits, under the team's quota lock or its pending slots
// (quota-locks.ts, migration exact_quotas), the last locks it takes: simultaneous writes of one team
// never take it past a limit, and far from its limits they do not wait for one another.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const teamWith = (overrides: LimitOverrides) => teamWithLimits(app, overrides);

const usage = (teamId: string) => teamUsage(app.orm.em.fork(), teamId);

const count = async (sql: string, params: unknown[]) =>
  (await app.sql<{ n: number }>(`select count(*)::int as n from ${sql}`, params))[0]?.n;

/** Holds locks of the team in a transaction of its own until `release`, as another process would. */
async function holding(take: string, params: unknown[]): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client(app.db.connection);
  await client.connect();
  try {
    await client.query('begin');
    await client.query(take, params);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

/** The team's pending slots (class 3, migration exact_quotas), as `select` expressions. */
const SLOTS = `pg_advisory_xact_lock(3, hashtext($1::text || ':' || n)) from generate_series(0, 7) as n`;

/** Sessions of this database waiting for an advisory lock of `classid`. */
const waitingFor = (classid: number) =>
  count(
    `pg_locks where locktype = 'advisory' and classid = $1 and not granted
       and database = (select oid from pg_database where datname = current_database())`,
    [classid],
  );

describe('the check at commit', () => {
  it('counts a cron that is switched on under the team’s quota lock', async () => {
    const team = await app.createTeam();
    let release = () => {};
    const held = app.orm.em.fork().transactional(async (tx) => {
      await lockTeamQuotas(tx, team.teamId);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await eventually(
      () => count(`pg_locks where locktype = 'advisory' and classid = 1 and granted`, []),
      (n) => (n ?? 0) > 0,
    );
    const waiting = app.request('POST', '/api/v1/crons', { key: team.key, body: cronBody() });
    await eventually(
      () => waitingFor(1),
      (n) => n === 1,
    );
    release();
    await held;
    expectBody(await waiting, 201, bodies.cron);
  });

  it('lets creates of a team far from its limits commit side by side, and waits when every slot is taken', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const one = await holding(`select pg_advisory_xact_lock(3, hashtext($1::text || ':0'))`, [team.teamId]);
    expectBody(
      await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() }),
      201,
      bodies.event,
    );
    await one.release();

    const all = await holding(`select ${SLOTS}`, [team.teamId]);
    const waiting = app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() });
    await eventually(
      () => waitingFor(3),
      (n) => n === 1,
    );
    expectBody(
      await app.request('POST', '/api/v1/events', { key: other.key, body: eventBody() }),
      201,
      bodies.event,
    );
    expect(await count('events where team_id = $1', [team.teamId])).toBe(1);
    await all.release();
    expectBody(await waiting, 201, bodies.event);
  });

  it('counts exactly when the team comes near its limit while creates wait for a slot', async () => {
    const limit = 16 * 1024 * 1024;
    const team = await teamWith({ max_pending_bytes: limit });
    // Another commit holds every slot and takes the team to 150 bytes below its limit.
    const all = await holding(
      `with held as (select ${SLOTS})
       insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method,
                           request_bytes, created_at, updated_at)
       select gen_random_uuid(), $1::uuid, 0, now() + interval '1 hour', 'pending', 'https://example.com/x',
              'https://example.com', 'POST', $2, now(), now()
       from (select count(*) from held) as taken`,
      [team.teamId, limit - 150],
    );
    // Both read the team far from its limit, then wait for a slot; under one, each finds it near.
    const creates = [1, 2].map(() =>
      app.request('POST', '/api/v1/events', { key: team.key, body: eventBody({ payload: payloadOf(100) }) }),
    );
    await eventually(
      () => waitingFor(3),
      (n) => n === 2,
    );
    await all.release();
    const answers = await Promise.all(creates);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403]);
    expectQuota(answers.find((answer) => answer.status === 403) ?? answers[0]!, {
      quota: 'pending_bytes',
      limit,
      current: limit - 50,
    });
    expect(await usage(team.teamId)).toMatchObject({ pending_bytes: limit - 50 });
  });

  it('lets exactly the batches that fit through when they arrive together', async () => {
    const team = await teamWith({ max_pending_events: 10 });
    const batch = { events: [eventBody(), eventBody(), eventBody()] };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.request('POST', '/api/v1/events/batch', { key: team.key, body: batch }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(3);
    for (const refused of responses.filter((r) => r.status !== 201))
      expectError(refused, 403, 'QUOTA_EXCEEDED');
    expect(await count('events where team_id = $1', [team.teamId])).toBe(9);
  });

  it('lets exactly the crons within the limit be switched on by simultaneous PATCHes', async () => {
    const team = await teamWith({ max_active_crons: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await app.request('POST', '/api/v1/crons', {
        key: team.key,
        body: cronBody({ is_active: false }),
      });
      ids.push(expectBody(created, 201, bodies.cron).data.id);
    }
    const responses = await Promise.all(
      ids.map((id) =>
        app.request('PATCH', `/api/v1/crons/${id}`, { key: team.key, body: { is_active: true } }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    for (const refused of responses.filter((r) => r.status !== 200))
      expect(expectError(refused, 403, 'QUOTA_EXCEEDED').details).toEqual({
        quota: 'active_crons',
        limit: 3,
        current: 3,
      });
    expect(await count('crons where team_id = $1 and is_active', [team.teamId])).toBe(3);
    // The refused ones were left inactive, with no pending events.
    expect(await count(`events where team_id = $1 and status = 'pending'`, [team.teamId])).toBeGreaterThan(0);
    const refusedIds = ids.filter((_, i) => responses[i]?.status !== 200);
    expect(await count('events where cron_id = any($1)', [refusedIds])).toBe(0);
  });

  it('answers a keyed create refused at commit with 403, and the same again for its key', async () => {
    const team = await teamWith({ max_pending_events: 1 });
    expectBody(
      await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() }),
      201,
      bodies.event,
    );
    const body = eventBody();
    const keyed = () =>
      app.request('POST', '/api/v1/events', {
        key: team.key,
        body,
        headers: { 'idempotency-key': 'full-1' },
      });
    const first = await keyed();
    expect(expectError(first, 403, 'QUOTA_EXCEEDED').details).toEqual({
      quota: 'pending_events',
      limit: 1,
      current: 1,
    });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await keyed();
    expect(again.status).toBe(403);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count('events where team_id = $1', [team.teamId])).toBe(1);
  });
});
