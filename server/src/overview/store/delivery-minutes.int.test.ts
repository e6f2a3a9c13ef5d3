import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../../test/harness.js';
import { createOrm } from '../../db/orm.js';
import { rawQuery } from '../../shared/raw-query.js';
import { latenessBucket, mergeHistograms } from '../../lateness/lateness.rules.js';
import {
  appendDeliveryMinutes,
  deliveryBins,
  dropMinutesBefore,
  foldDeliveryMinutes,
} from './delivery-minutes.js';

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

interface Call {
  status: 'success' | 'failed' | 'processing';
  lateMs: number | null;
  retry?: boolean;
}

/** Appends calls of one team as the outcome statement does, from a stand-in for its `recorded` CTE. */
async function append(teamId: string, minute: string, calls: Call[]): Promise<void> {
  const rows = calls.map((call) => {
    const id = randomUUID();
    const scheduled = new Date(Date.parse(minute) + 1000);
    return {
      id,
      team_id: teamId,
      status: call.status,
      scheduled_at: scheduled.toISOString(),
      late_ms: call.lateMs,
      // A retry attempt with more to come keeps original_status null; an original is its own original.
      original_id: call.retry ? randomUUID() : id,
      original_status: null,
    };
  });
  await rawQuery(
    orm.em.fork(),
    `with recorded as (
       select *, scheduled_at + late_ms * interval '1 millisecond' as executed_at
       from jsonb_to_recordset($1::jsonb) as r(id uuid, team_id uuid, status text,
         scheduled_at timestamptz, late_ms numeric, original_id uuid, original_status text)
     ), minutes as (${appendDeliveryMinutes('recorded')})
     select 1`,
    [JSON.stringify(rows)],
  );
}

const window = (from: string) => ({
  from: new Date(from),
  to: new Date(Date.parse(from) + 3_600_000),
  binSeconds: 60,
});
/** Every minute of the team, in bins of a day. */
const everything = { from: new Date(0), to: new Date('2100-01-01T00:00:00Z'), binSeconds: 86_400 };

describe('delivery_minutes', () => {
  it('buckets lateness in SQL exactly as latenessBucket does', async () => {
    const team = randomUUID();
    const latenesses = [-3, 0, 0.4, 1, 1.189, 1.19, 2, 2.5, 4, 7.3, 100, 1000.5, 65_536, 2 ** 24, 5e7];
    await append(
      team,
      '2030-01-14T09:00:00Z',
      latenesses.map((lateMs) => ({ status: 'success', lateMs })),
    );
    const bins = await deliveryBins(orm.em.fork(), team, everything);
    expect(mergeHistograms(bins.map((bin) => bin.histogram))).toEqual(
      mergeHistograms(latenesses.map((ms) => new Map([[latenessBucket(ms), 1]]))),
    );
  });

  it('sorts calls into succeeded, retrying and failed, a missed one failed without lateness', async () => {
    const team = randomUUID();
    await append(team, '2030-01-14T09:00:00Z', [
      { status: 'success', lateMs: 2 },
      { status: 'processing', lateMs: 3 },
      { status: 'failed', lateMs: 4, retry: true },
      { status: 'failed', lateMs: 5 },
    ]);
    // Missed during downtime: no call, so no start; it counts in the minute it was recorded.
    await append(team, '2030-01-14T09:00:00Z', [{ status: 'failed', lateMs: null }]);
    const bins = await deliveryBins(orm.em.fork(), team, everything);
    const total = (key: 'succeeded' | 'retrying' | 'failed') => bins.reduce((sum, bin) => sum + bin[key], 0);
    expect([total('succeeded'), total('retrying'), total('failed')]).toEqual([1, 2, 2]);
    expect([...mergeHistograms(bins.map((bin) => bin.histogram)).values()].reduce((a, b) => a + b)).toBe(4);
  });

  it('folds each team and minute into one row without changing a figure, and leaves other teams alone', async () => {
    const team = randomUUID();
    const other = randomUUID();
    for (let batch = 0; batch < 5; batch += 1) {
      await append(team, '2030-01-14T10:00:00Z', [
        { status: 'success', lateMs: batch + 1 },
        { status: 'failed', lateMs: 10 * (batch + 1) },
      ]);
      await append(team, '2030-01-14T10:01:00Z', [{ status: 'success', lateMs: 3 }]);
    }
    await append(other, '2030-01-14T10:00:00Z', [{ status: 'success', lateMs: 1 }]);
    const before = await deliveryBins(orm.em.fork(), team, window('2030-01-14T10:00:00Z'));
    expect(await foldDeliveryMinutes(orm.em.fork(), 1000)).toBeGreaterThanOrEqual(10);
    const rows = await rawQuery<{ team_id: string; rows: number }>(
      orm.em.fork(),
      'select team_id, count(*)::int as rows from delivery_minutes where team_id = any($1) group by team_id, minute order by team_id',
      [[team, other]],
    );
    expect(rows.every((row) => row.rows === 1)).toBe(true);
    expect(await deliveryBins(orm.em.fork(), team, window('2030-01-14T10:00:00Z'))).toEqual(before);
    expect(await foldDeliveryMinutes(orm.em.fork(), 1000)).toBe(0);
  });

  it('drops the minutes before a cutoff, in batches', async () => {
    const team = randomUUID();
    for (const minute of [
      '2029-01-01T00:00:00Z',
      '2029-01-01T00:01:00Z',
      '2029-01-01T00:02:00Z',
      '2029-02-01T00:00:00Z',
    ]) {
      await append(team, minute, [{ status: 'success', lateMs: 1 }]);
    }
    const cutoff = new Date('2029-01-15T00:00:00Z');
    expect(await dropMinutesBefore(orm.em.fork(), cutoff, 2)).toBe(2);
    expect(await dropMinutesBefore(orm.em.fork(), cutoff, 2)).toBeGreaterThanOrEqual(1);
    const left = await rawQuery<{ minute: Date }>(
      orm.em.fork(),
      'select minute from delivery_minutes where team_id = $1',
      [team],
    );
    expect(left.map((row) => new Date(row.minute).toISOString())).toEqual(['2029-02-01T00:00:00.000Z']);
  });
});
