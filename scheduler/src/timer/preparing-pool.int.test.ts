import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database.js';
import { eventually } from '../testing/eventually.js';
import { AgendaTimer } from './agenda-timer.js';
import { preparingPool } from './preparing-pool.js';

let database: TestDatabase;
/** One connection, so that its prepared statements are the ones every query sees. */
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

interface Prepared {
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

const preparedLocks = async () =>
  (
    await pool.query<Prepared>(
      `select statement, generic_plans, custom_plans from pg_prepared_statements
       where statement like '%SET locked_at = $1, last_modified_by = $5%'`,
    )
  ).rows;

describe('preparingPool', () => {
  it("prepares Agenda's lock statement once and settles on its generic plan", async () => {
    const timer = new AgendaTimer({
      pool,
      name: 'prepared-test',
      logger: pino({ level: 'silent' }),
      processEveryMs: 20,
      slotConcurrency: 1,
      slotLockLifetimeMs: 10_000,
      reconcileEveryMs: 60_000,
      onSlot: () => Promise.resolve(true),
      onReconcile: () => Promise.resolve(),
    });
    await timer.start();
    try {
      // Each round of the slots' Agenda runs the lock statement once (the reconcile job's Agenda
      // polls at half its minute).
      await eventually(preparedLocks, ([lock]) => Number(lock?.generic_plans ?? 0) >= 20);
      const locks = await preparedLocks();
      expect(locks).toHaveLength(1);
      expect(Number(locks[0]?.custom_plans)).toBeLessThanOrEqual(5);
    } finally {
      await timer.drain(5000);
    }
  });

  it('runs a text unnamed once its table changed columns under its prepared `select *`', async () => {
    await pool.query('create table columns_change (id int primary key)');
    await pool.query('insert into columns_change values (1)');
    const preparing = preparingPool(pool);
    const read = async () =>
      (await preparing.query('select * from columns_change where id = $1', [1])).rows as unknown[];

    expect(await read()).toEqual([{ id: 1 }]);
    await pool.query('alter table columns_change add column note text default $$added$$');
    expect(await read()).toEqual([{ id: 1, note: 'added' }]);
    expect(await read()).toEqual([{ id: 1, note: 'added' }]);
  });

  it('passes statements without parameters and the pool’s other members through', async () => {
    const preparing = preparingPool(pool);
    expect((await preparing.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const client = await preparing.connect();
    client.release();
    expect(preparing.totalCount).toBe(1);
    const { rows } = await pool.query<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements where statement = 'select 1 as one'",
    );
    expect(rows[0]?.n).toBe(0);
  });
});
