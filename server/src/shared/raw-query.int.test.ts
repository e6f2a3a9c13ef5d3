import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { genericPlanQuery, preparedQuery, rawQuery } from './raw-query.js';

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection: what a statement prepared is visible to the next one.
  orm = await createOrm(database.connection, 1);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

const preparedStatements = async () =>
  rawQuery<{ statement: string }>(orm.em.fork(), 'select statement from pg_prepared_statements');

describe('preparedQuery', () => {
  it('prepares a statement once per connection and reuses it', async () => {
    const sql = 'select $1::int + 1 as n';
    expect(await preparedQuery(orm.em.fork(), sql, [1])).toEqual([{ n: 2 }]);
    expect(await preparedQuery(orm.em.fork(), sql, [41])).toEqual([{ n: 42 }]);
    const statements = (await preparedStatements()).map((row) => row.statement);
    expect(statements.filter((statement) => statement === sql)).toHaveLength(1);
  });

  it('runs inside the transaction of its entity manager, unnamed', async () => {
    const sql = "select current_setting('ws.probe', true) as probe";
    const seen = await orm.em.fork().transactional(async (tx) => {
      await rawQuery(tx, "select set_config('ws.probe', 'inside', true)");
      return preparedQuery<{ probe: string }>(tx, sql, []);
    });
    expect(seen).toEqual([{ probe: 'inside' }]);
    expect((await preparedStatements()).map((row) => row.statement)).not.toContain(sql);
  });
});

describe('genericPlanQuery', () => {
  const mode = async () =>
    (await rawQuery<{ mode: string }>(orm.em.fork(), "select current_setting('plan_cache_mode') as mode"))[0]
      ?.mode;

  it('runs its statement with the generic plan from the first call, and only that statement', async () => {
    const sql = "select $1::int as n, current_setting('plan_cache_mode') as mode";
    for (const n of [1, 2]) {
      expect(await genericPlanQuery(orm.em.fork(), sql, [n])).toEqual([{ n, mode: 'force_generic_plan' }]);
    }
    const [plans] = await rawQuery<{ generic_plans: string; custom_plans: string }>(
      orm.em.fork(),
      'select generic_plans, custom_plans from pg_prepared_statements where statement = $1',
      [sql],
    );
    expect(plans).toEqual({ generic_plans: '2', custom_plans: '0' });
    expect(await mode()).toBe('auto');
  });

  it('inside a transaction, forces the generic plan for its statement only', async () => {
    const seen = await orm.em.fork().transactional(async (tx) => {
      const [inside] = await genericPlanQuery<{ mode: string }>(
        tx,
        "select current_setting('plan_cache_mode') as mode",
        [],
      );
      const [after] = await rawQuery<{ mode: string }>(
        tx,
        "select current_setting('plan_cache_mode') as mode",
      );
      return [inside?.mode, after?.mode];
    });
    expect(seen).toEqual(['force_generic_plan', 'auto']);
  });

  it('gives back no connection left forcing generic plans by a failed statement', async () => {
    await expect(genericPlanQuery(orm.em.fork(), 'select 1 / $1::int', [0])).rejects.toThrow(
      /division by zero/,
    );
    expect(await preparedQuery(orm.em.fork(), 'select $1::int + 1 as n', [1])).toEqual([{ n: 2 }]);
    expect(await mode()).toBe('auto');
  });
});
