import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { adminQuery, dropDatabase } from './admin-query.js';

const uncaught: Error[] = [];
const keep = (error: Error) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', keep);
});
afterEach(() => {
  process.off('uncaughtException', keep);
});

async function newDatabase(): Promise<string> {
  const name = `wst_drop_${randomBytes(6).toString('hex')}`;
  await adminQuery(inject('adminConnection'), `create database ${name}`);
  return name;
}

describe('dropping a test database', () => {
  it('waits for the connections of a pool that has just ended, so that none is ended with an error', async () => {
    const admin = inject('adminConnection');
    const ended: number[] = [];
    for (let round = 0; round < 20; round++) {
      const name = await newDatabase();
      const pool = new pg.Pool({ ...admin, database: name, max: 2 });
      const clients = [await pool.connect(), await pool.connect()];
      for (const client of clients) {
        await client.query('select 1');
        client.release();
      }
      await pool.end();
      ended.push(await dropDatabase(admin, name));
    }
    expect(ended.every((sessions) => sessions === 0)).toBe(true);
    expect(uncaught).toEqual([]);
  });

  it('ends a session that stays', async () => {
    const admin = inject('adminConnection');
    const name = await newDatabase();
    const client = new pg.Client({ ...admin, database: name });
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    await client.connect();
    expect(await dropDatabase(admin, name)).toBe(1);
    await expect.poll(() => errors[0]?.message).toBe('terminating connection due to administrator command');
    await client.end().catch(() => undefined);
  });
});
