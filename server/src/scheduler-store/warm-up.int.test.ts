import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { noCallsNoted } from '../destinations/store/destination-calls.js';
import { nextDueOfNothing } from '../events/store/claims.js';
import { claimsTakingNothing } from './claims.js';
import { noOutcomesRecorded } from './record-outcomes.js';
import { warmUpConnections } from './warm-up.js';

const POOL_SIZE = 3;

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, POOL_SIZE);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

/** The statements each connection of the pool has prepared, all connections held at once. */
async function preparedPerConnection(): Promise<string[][]> {
  const pool = await orm.em.getConnection().getNativeClient();
  const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
  try {
    return await Promise.all(
      clients.map(async (client) => {
        const { rows } = await client.query<{ statement: string }>(
          'select statement from pg_prepared_statements',
        );
        return rows.map((row) => row.statement);
      }),
    );
  } finally {
    for (const client of clients) client.release();
  }
}

describe('the warm-up of the scheduler’s connections', () => {
  it('prepares the claims, the next-due probe and the outcome writes on every connection, changing nothing', async () => {
    const expected = [...claimsTakingNothing(), nextDueOfNothing, noOutcomesRecorded, noCallsNoted].map(
      (call) => call.sql,
    );
    expect((await preparedPerConnection()).flat()).toEqual([]);
    await warmUpConnections(orm.em.fork());
    const prepared = await preparedPerConnection();
    expect(prepared).toHaveLength(POOL_SIZE);
    for (const statements of prepared) expect(statements).toEqual(expect.arrayContaining(expected));
    const [written] = await rawQuery<{ n: string }>(
      orm.em.fork(),
      'select (select count(*) from destinations) + (select count(*) from event_counts) as n',
    );
    expect(Number(written?.n)).toBe(0);
  });

  it('gives back the connections it opened when PostgreSQL refuses one', async () => {
    const role = `ws_warm_${randomBytes(4).toString('hex')}`;
    await rawQuery(orm.em.fork(), `create role ${role} login connection limit 2`);
    await rawQuery(orm.em.fork(), `grant all on all tables in schema public to ${role}`);
    const limited = await createOrm({ ...database.connection, user: role }, 4);
    try {
      await expect(warmUpConnections(limited.em.fork())).rejects.toThrow();
      const [row] = await rawQuery<{ one: number }>(limited.em.fork(), 'select 1 as one');
      expect(row?.one).toBe(1);
    } finally {
      await limited.close();
      await rawQuery(orm.em.fork(), `drop owned by ${role}`);
      await rawQuery(orm.em.fork(), `drop role ${role}`);
    }
  });
});
