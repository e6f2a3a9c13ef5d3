import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog, claimDue, claimsTakingNothing } from './claims.js';

// bench/scale, 2026-11-30: with months of pending events, a slot claim planned for its values (a
// one-second range, a look-ahead) looked three times cheaper than the generic plan, so PostgreSQL
// planned every slot claim anew (1.8 ms each) for a plan that ran no faster. Both claims hide those
// values: the backlog claim's bounds on `scheduled_at`, seen, made its plans 11 % cheaper here.

const FUTURE = 200_000;
const CALLS = 8;

let database: TestDatabase;
let orm: MikroORM;
const slotStart = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);

interface PlanCounts {
  generic_plans: string;
  custom_plans: string;
}

/** The plans of the one connection's prepared claim (`backlog`: the one with the due sample). */
async function plansOf(backlog: boolean): Promise<{ generic: number; custom: number }> {
  const [row] = await rawQuery<PlanCounts>(
    orm.em.fork(),
    `select generic_plans, custom_plans from pg_prepared_statements
     where statement like '%claim due events%' and (statement like '%due_sample%') = $1`,
    [backlog],
  );
  return { generic: Number(row?.generic_plans), custom: Number(row?.custom_plans) };
}

const literal = (value: unknown): string =>
  value instanceof Date
    ? `'${value.toISOString()}'`
    : typeof value === 'string'
      ? `'${value.replaceAll("'", "''")}'`
      : String(value);

/** The estimated cost of `sql` with `params`: planned for these values, and generic. */
async function costs(sql: string, params: readonly unknown[]): Promise<{ custom: number; generic: number }> {
  return orm.em.fork().transactional(async (tx) => {
    await rawQuery(tx, `prepare cost_probe as ${sql}`);
    try {
      const costOf = async (mode: string) => {
        await rawQuery(tx, `set local plan_cache_mode = ${mode}`);
        const [row] = await rawQuery<{ 'QUERY PLAN': [{ Plan: { 'Total Cost': number } }] }>(
          tx,
          `explain (format json) execute cost_probe(${params.map(literal).join(', ')})`,
        );
        return Number(row?.['QUERY PLAN'][0].Plan['Total Cost']);
      };
      return { custom: await costOf('force_custom_plan'), generic: await costOf('force_generic_plan') };
    } finally {
      await rawQuery(tx, 'deallocate cost_probe');
    }
  });
}

/** How far apart the two costs are, as a share of the generic plan's. */
const gap = ({ custom, generic }: { custom: number; generic: number }) =>
  Math.abs(generic - custom) / generic;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so that every claim runs on the session whose prepared statements are read.
  orm = await createOrm(database.connection, 1);
  const team = await makeTeam(orm.em.fork(), 'plans');
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, now() + interval '1 hour' + n * interval '13 seconds', 'pending',
            'https://future.example.com/hook', 'https://future.example.com', 'POST', now(), now()
     from generate_series(1, $2) as n`,
    [team, FUTURE],
  );
  await makeDueEvents(orm.em.fork(), {
    teamId: team,
    origin: 'https://due.example.com',
    count: 200,
    at: new Date(slotStart.getTime() + 100),
  });
  await rawQuery(orm.em.fork(), 'analyze event_queue');
}, 120_000);
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('claims among months of pending events', () => {
  it('settle on one generic plan: the slot claim', async () => {
    const [slot] = claimsTakingNothing();
    const params = [...(slot?.params ?? [])];
    params.splice(0, 1, 5);
    params.splice(12, 2, slotStart, new Date(slotStart.getTime() + 1000));
    // Seen, the values made the plan for them 19 % cheaper at this size (three times at bench/scale's).
    expect(gap(await costs(slot?.sql ?? '', params))).toBeLessThan(0.01);

    for (let call = 0; call < CALLS; call++) {
      const claimed = await claimDue(orm.em.fork(), {
        ...unsharedClaim(5),
        from: slotStart,
        before: new Date(slotStart.getTime() + 1000),
      });
      expect(claimed).toHaveLength(5);
    }
    // PostgreSQL plans the first five calls for their values, then compares.
    expect(await plansOf(false)).toEqual({ generic: CALLS - 5, custom: 5 });
  });

  it('settle on one generic plan: the backlog claim', async () => {
    const [, backlog] = claimsTakingNothing();
    const params = [...(backlog?.params ?? [])];
    params.splice(0, 1, 5);
    params.splice(11, 2, slotStart, '-infinity');
    expect(gap(await costs(backlog?.sql ?? '', params))).toBeLessThan(0.01);

    for (let call = 0; call < CALLS; call++) {
      const claimed = await claimBacklog(orm.em.fork(), unsharedClaim(5));
      expect(claimed).toHaveLength(5);
    }
    expect(await plansOf(true)).toEqual({ generic: CALLS - 5, custom: 5 });
  });
});
