import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { cronBody, eventBody } from '../../test/factories.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { teamWithLimits } from '../../test/limits.js';
import { eventually } from '../../test/receiver.js';
import { lockTeamQuotas } from './quota-locks.js';
import type { LimitOverrides } from './team-limits.rules.js';

// Quotas are checked as the transaction commits, under the team's quota lock (quota-locks.ts), the
// last lock it takes: simultaneous writes of one team count one after the other.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const teamWith = (overrides: LimitOverrides) => teamWithLimits(app, overrides);

const count = async (sql: string, params: unknown[]) =>
  (await app.sql<{ n: number }>(`select count(*)::int as n from ${sql}`, params))[0]?.n;

describe('the check at commit', () => {
  it('takes the team’s quota lock: a create waits while another transaction holds it, another team’s does not', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    let release = () => {};
    const held = app.orm.em.fork().transactional(async (tx) => {
      await lockTeamQuotas(tx, team.teamId);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const quotaLock = (granted: boolean) =>
      count(
        `pg_locks where locktype = 'advisory' and classid = 1 and objsubid = 2 and granted = $2
           and objid::bigint = hashtext($1) & 4294967295
           and database = (select oid from pg_database where datname = current_database())`,
        [team.teamId, granted],
      );
    await eventually(
      () => quotaLock(true),
      (n) => n === 1,
    );
    const waiting = app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() });
    await eventually(
      () => quotaLock(false),
      (n) => n === 1,
    );
    expectBody(
      await app.request('POST', '/api/v1/events', { key: other.key, body: eventBody() }),
      201,
      bodies.event,
    );
    expect(await count('events where team_id = $1', [team.teamId])).toBe(0);
    release();
    await held;
    expectBody(await waiting, 201, bodies.event);
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
