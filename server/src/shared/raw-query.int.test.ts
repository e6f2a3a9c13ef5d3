import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { preparedQuery, rawQuery } from './raw-query.js';

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
