import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ClaimOptions } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog, claimDue } from './claims.js';

// bench/scale, 2026-11-30 and 2026-12-01: with months of pending events and a backlog, PostgreSQL
// planned the claims for their values at most calls (2-6 ms a plan), although their generic plans
// read the same pages and ran faster. Both claims now always run their generic plan. Before, this
// test saw each connection plan its first five claims for their values; the choice at the calls
// after those, which went to plans for the values in bench/scale, it did not reproduce.

const FUTURE = 200_000;
const TEAMS = 10;
const ORIGINS = 5;
const DUE_PER_TEAM = 200;
/** A busy process's claims: mostly the few places just freed, at times many. */
const LIMITS = [5, 5, 5, 5, 5, 5, 200, 5, 5, 200, 5, 5, 200, 5, 5, 200];

let database: TestDatabase;
let orm: MikroORM;
const teams: string[] = [];
const slotStart = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);
const origin = (team: number) => `https://due-${team % ORIGINS}.example.com`;

/** The plans of the one connection's prepared claim (`backlog`: the one with the due sample). */
async function plansOf(backlog: boolean): Promise<{ generic: number; custom: number }> {
  const [row] = await rawQuery<{ generic_plans: string; custom_plans: string }>(
    orm.em.fork(),
    `select generic_plans, custom_plans from pg_prepared_statements
     where statement like '%claim due events%' and (statement like '%due_sample%') = $1`,
    [backlog],
  );
  return { generic: Number(row?.generic_plans), custom: Number(row?.custom_plans) };
}

/** A claim of a busy process: every team and origin with calls in flight and room left. */
function queuedClaim(limit: number): ClaimOptions {
  return {
    limit,
    leaseMs: 60_000,
    leaseToken: randomUUID(),
    owner: 1,
    servedSince: new Date(slotStart.getTime() - 60_000),
    shares: {
      teamMax: 500,
      destinationMax: 500,
      pairMax: 500,
      teams: teams.map((teamId) => ({ teamId, room: 400 })),
      destinations: Array.from({ length: ORIGINS }, (_, i) => ({ origin: origin(i), room: 300 })),
      pairs: teams.map((teamId, i) => ({ teamId, origin: origin(i), held: 10, room: 90, free: 90 })),
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so that every claim runs on the session whose prepared statements are read.
  orm = await createOrm(database.connection, 1);
  for (let i = 0; i < TEAMS; i++) teams.push(await makeTeam(orm.em.fork(), `plans-${i}`));
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, now() + interval '1 hour' + n * interval '13 seconds', 'pending',
            'https://future.example.com/hook', 'https://future.example.com', 'POST', now(), now()
     from generate_series(1, $2) as n`,
    [teams[0], FUTURE],
  );
  for (const [i, teamId] of teams.entries()) {
    const at = new Date(slotStart.getTime() + 100);
    await makeDueEvents(orm.em.fork(), { teamId, origin: origin(i), count: DUE_PER_TEAM, at });
  }
  await rawQuery(orm.em.fork(), 'analyze');
}, 120_000);
afterAll(async () => {
  await orm.close();
  await database.drop();
});

const freeAll = () =>
  rawQuery(
    orm.em.fork(),
    `update event_queue set lease_token = null, lease_owner = null, lease_expires_at = null
     where lease_token is not null`,
  );

describe('claims in a backlog, among months of pending events', () => {
  it('run their generic plan from the first call: the slot claim', async () => {
    for (const limit of LIMITS) {
      const slot = { from: slotStart, before: new Date(slotStart.getTime() + 1000), aheadMs: 100 };
      expect(await claimDue(orm.em.fork(), { ...queuedClaim(limit), ...slot })).toHaveLength(limit);
      await freeAll();
    }
    expect(await plansOf(false)).toEqual({ generic: LIMITS.length, custom: 0 });
  });

  it('run their generic plan from the first call: the backlog claim', async () => {
    for (const limit of LIMITS) {
      expect(await claimBacklog(orm.em.fork(), { ...queuedClaim(limit), aheadMs: 100 })).toHaveLength(limit);
      await freeAll();
    }
    expect(await plansOf(true)).toEqual({ generic: LIMITS.length, custom: 0 });
  });

  it('leave the connection planning its other statements as before', async () => {
    await claimDue(orm.em.fork(), { ...queuedClaim(5), from: slotStart, before: slotStart });
    const [row] = await rawQuery<{ mode: string }>(
      orm.em.fork(),
      "select current_setting('plan_cache_mode') as mode",
    );
    expect(row?.mode).toBe('auto');
  });
});
