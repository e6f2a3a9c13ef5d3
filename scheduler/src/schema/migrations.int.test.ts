import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase, migrate } from '../../test/database.js';
import { SLOT_JOB } from '../timer/slot-jobs.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ migrated: false });
});
afterAll(async () => {
  await database.drop();
});

const rows = async <T extends object>(sql: string, params: unknown[] = []) =>
  (await database.pool.query<T>(sql, params)).rows;

const SCHEDULER_TABLES = ['agenda_jobs', 'scheduler_processes', 'timer_horizon'];

async function tables(): Promise<string[]> {
  const found = await rows<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = 'public' and table_name = any($1) order by table_name`,
    [SCHEDULER_TABLES],
  );
  return found.map((row) => row.name);
}

describe('the scheduler’s migrations', () => {
  it('create its tables, indexes and sequence in an empty database', async () => {
    expect(await tables()).toEqual([]);
    await migrate(database.pool);

    expect(await tables()).toEqual(SCHEDULER_TABLES);
    const indexes = await rows<{ name: string }>(
      `select indexname as name from pg_indexes where tablename = 'agenda_jobs' order by indexname`,
    );
    expect(indexes.map((index) => index.name)).toEqual(
      expect.arrayContaining([
        'agenda_jobs_find_and_lock_idx',
        'agenda_jobs_slot_idx',
        'agenda_jobs_single_job_idx',
      ]),
    );
    expect(
      await rows(`select 1 from pg_sequences where sequencename = 'scheduler_process_ids'`),
    ).toHaveLength(1);
    const columns = await rows<{ name: string }>(
      `select column_name as name from information_schema.columns where table_name = 'scheduler_processes'`,
    );
    expect(columns.map((column) => column.name).sort()).toEqual(['id', 'name', 'served_since', 'started_at']);
    const [horizon] = await rows<{ covered_until: Date }>('select covered_until from timer_horizon');
    expect(horizon?.covered_until).toBeInstanceOf(Date);
  });

  it('run again over their own schema without an error, keeping its rows', async () => {
    const key = '1800000000:0';
    await database.pool.query(
      `insert into agenda_jobs (name, next_run_at, data) values ($1, now() + interval '1 minute', $2)`,
      [SLOT_JOB, { key, slot: 1_800_000_000, shard: 0 }],
    );
    await database.pool.query(
      `insert into scheduler_processes (id, name) values (nextval('scheduler_process_ids'), 'a')`,
    );
    const [before] = await rows<{ covered_until: Date }>('select covered_until from timer_horizon');

    await migrate(database.pool);

    expect(await tables()).toEqual(SCHEDULER_TABLES);
    expect(await rows(`select 1 from agenda_jobs where data ->> 'key' = $1`, [key])).toHaveLength(1);
    expect(await rows('select name from scheduler_processes')).toEqual([{ name: 'a' }]);
    expect(await rows('select covered_until from timer_horizon')).toEqual([before]);
  });

  it('keep one timer job per slot and shard', async () => {
    const insert = () =>
      database.pool.query(`insert into agenda_jobs (name, next_run_at, data) values ($1, now(), $2)`, [
        SLOT_JOB,
        { key: '1800000001:0', slot: 1_800_000_001, shard: 0 },
      ]);
    await insert();
    await expect(insert()).rejects.toThrow(/agenda_jobs_slot_idx/);
  });
});
