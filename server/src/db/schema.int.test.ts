import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client(database.connection);
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await database.drop();
});

describe('the migrated schema', () => {
  // Deleting a referenced row makes PostgreSQL look up its referencing rows (to cascade, unlink or
  // refuse): without an index led by the referencing columns, that is a scan of the whole table
  // for each row deleted.
  it('has an index led by the columns of every foreign key', async () => {
    const { rows } = await client.query<{ key: string; indexed: boolean }>(
      `select c.conrelid::regclass || '.' || c.conname as key,
              exists (
                select 1 from pg_index i
                where i.indrelid = c.conrelid
                  and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey
              ) as indexed
       from pg_constraint c
       where c.contype = 'f' and c.connamespace = 'public'::regnamespace`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => !row.indexed).map((row) => row.key)).toEqual([]);
  });
});
