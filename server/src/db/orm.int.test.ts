import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from './orm.js';

let database: TestDatabase;
let orm: MikroORM;
let observer: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  observer = new pg.Client(database.connection);
  await observer.connect();
});
afterAll(async () => {
  vi.useRealTimers();
  await orm?.close();
  await observer.end();
  await database.drop();
});

async function backendsOfThePool(): Promise<number[]> {
  const { rows } = await observer.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and application_name = 'webhook-scheduler' order by pid`,
    [database.connection.database],
  );
  return rows.map((row) => row.pid);
}

describe('the ORM pool', () => {
  it('keeps every connection it opened through a quiet spell', async () => {
    // The pool's idle timers on fake time, so that a quiet hour passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    orm = await createOrm(database.connection, 3);
    const em = orm.em.fork();
    const at = () =>
      em.getConnection().execute<{ pid: number }[]>('select pg_backend_pid() as pid, pg_sleep(0.2)');
    const opened = (await Promise.all([at(), at(), at()])).map(([row]) => row!.pid).sort((x, y) => x - y);
    expect(new Set(opened).size).toBe(3);
    expect(await backendsOfThePool()).toEqual(opened);

    vi.advanceTimersByTime(3_600_000);
    vi.useRealTimers();
    // A connection the pool closed leaves pg_stat_activity within milliseconds; give it ample time.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await backendsOfThePool()).toEqual(opened);
  });
});
