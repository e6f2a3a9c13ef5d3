import type { MikroORM } from '@mikro-orm/postgresql';
import { Timers } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCrons, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { cronsRunningOut, materializeOccurrences } from './cron-occurrences.js';

// bench/scale, 2026-11-26: over (materialized_until), the top-up's `is null or <` in NULLS FIRST
// order read and sorted all 20,000 crons for each batch of 82 (30 ms).

const WAITING = 2000;
const HORIZON_MS = 200_000;

let database: TestDatabase;
let orm: MikroORM;
let team: string;
let never: string[];
let soon: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  team = await makeTeam(orm.em.fork(), 'crons');
  const now = Date.now();
  await makeCrons(orm.em.fork(), team, WAITING, (i) => ({
    materializedUntil: new Date(now + 86_400_000 + i * 1000),
  }));
  // A minute apart: more than the spread of 47 s, so they run out in this order.
  const aMinuteApart = (i: number) => ({ materializedUntil: new Date(now + i * 60_000) });
  soon = (await makeCrons(orm.em.fork(), team, 3, aMinuteApart)).map((cron) => cron.id);
  never = (await makeCrons(orm.em.fork(), team, 2, () => ({ materializedUntil: null }))).map(
    (cron) => cron.id,
  );
  await makeCrons(orm.em.fork(), team, 5, () => ({ materializedUntil: null, isActive: false }));
  await rawQuery(orm.em.fork(), 'analyze crons');
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('the crons a top-up takes', () => {
  it('are the active ones running out, never materialized first, read from a range of the index', async () => {
    const { ids, reads } = await orm.em.fork().transactional(async (tx) => {
      const crons = await cronsRunningOut(tx, HORIZON_MS, 10);
      const [row] = await rawQuery<{ heap: string; index: string }>(
        tx,
        `select pg_stat_get_xact_tuples_returned('crons'::regclass) as heap,
                (select coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0)
                 from pg_index where indrelid = 'crons'::regclass) as index`,
      );
      return {
        ids: crons.map((cron) => cron.id),
        reads: { heap: Number(row?.heap), index: Number(row?.index) },
      };
    });
    expect(new Set(ids.slice(0, 2))).toEqual(new Set(never));
    expect(ids.slice(2)).toEqual(soon);
    // No sequential scan over the crons waiting, and about the five index entries returned.
    expect(reads.heap).toBe(0);
    expect(reads.index).toBeLessThan(20);
  });

  it('are spread over 47 s when they share a schedule, not taken all at once', async () => {
    const at = Date.now() + 3_600_000;
    const ids = new Set(
      (await makeCrons(orm.em.fork(), team, 200, () => ({ materializedUntil: new Date(at) }))).map(
        (cron) => cron.id,
      ),
    );
    const takenWithin = (horizonMs: number) =>
      orm.em.fork().transactional(async (tx) => {
        const crons = await cronsRunningOut(tx, at - Date.now() + horizonMs, 1000);
        return crons.filter((cron) => ids.has(cron.id)).length;
      });
    expect(await takenWithin(-49_000)).toBe(0);
    const half = await takenWithin(-23_500);
    expect(half).toBeGreaterThan(50);
    expect(half).toBeLessThan(150);
    expect(await takenWithin(500)).toBe(200);
  });

  it('are spread over the gap between their occurrences, less the reach and 7 s, once topped up', async () => {
    const FIVE_MINUTES = 300_000;
    const mark = (Math.floor(Date.now() / FIVE_MINUTES) + 24) * FIVE_MINUTES;
    const crons = await makeCrons(orm.em.fork(), team, 200, () => ({
      cronExpression: '*/5 * * * *',
      materializedUntil: new Date(mark),
    }));
    const ids = new Set(crons.map((cron) => cron.id));
    // Topped up 90 s before the mark, as the reconcile would: each gets the occurrence after it.
    const added = await orm.em
      .fork()
      .transactional((tx) =>
        materializeOccurrences(tx, new Timers({ shards: 2 }), crons, new Date(mark - 90_000), 66_000),
      );
    expect(added).toBe(200);
    const runsOut = mark + FIVE_MINUTES;
    const takenWithin = (beforeRunsOutMs: number) =>
      orm.em.fork().transactional(async (tx) => {
        const taken = await cronsRunningOut(tx, runsOut - Date.now() - beforeRunsOutMs, 1000);
        return taken.filter((cron) => ids.has(cron.id)).length;
      });
    // 300 s − 66 s − 7 s: from 7 s after the mark's calls to the reach before the next.
    expect(await takenWithin(228_000)).toBe(0);
    const half = await takenWithin(113_500);
    expect(half).toBeGreaterThan(50);
    expect(half).toBeLessThan(150);
    expect(await takenWithin(-500)).toBe(200);
  });
});
