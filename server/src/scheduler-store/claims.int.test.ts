import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog } from './claims.js';
import { dueBacklog } from '../events/store/queue-load.js';

// The scheduler asks at every tick whether anything is due: on a large install, most pending
// events are not, and the answer must not read them.

const FUTURE_EVENTS = 5000;

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  const em = orm.em.fork();
  const [team] = await rawQuery<{ id: string }>(
    em,
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     values (gen_random_uuid(), 'large', 'whsec_large', now(), now()) returning id`,
  );
  await rawQuery(
    em,
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, now() + n * interval '1 minute', 'pending', 'https://example.com/hook',
            'https://example.com', 'POST', now(), now()
     from generate_series(1, $2) as n`,
    [team!.id, FUTURE_EVENTS],
  );
  await rawQuery(em, 'analyze events');
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

/**
 * Rows and index entries of `events` read by `work` (by a scan of the table or of any of its
 * indexes), counted by PostgreSQL within one transaction.
 */
async function entriesRead<T>(work: (tx: EntityManager) => Promise<T>): Promise<{ result: T; read: number }> {
  const readSoFar = async (tx: EntityManager) => {
    const [row] = await rawQuery<{ read: string }>(
      tx,
      `select sum(pg_stat_get_xact_tuples_returned(relation)) as read from (
         select 'events'::regclass::oid as relation
         union all select indexrelid from pg_index where indrelid = 'events'::regclass
       ) as relations`,
    );
    return Number(row?.read ?? 0);
  };
  return orm.em.fork().transactional(async (tx) => {
    const before = await readSoFar(tx);
    const result = await work(tx);
    return { result, read: (await readSoFar(tx)) - before };
  });
}

const claimOptions = {
  limit: 100,
  leaseMs: 60_000,
  leaseToken: randomUUID(),
  owner: 1,
  shares: { teamMax: 100, destinationMax: 100, pairMax: 100, teams: [], destinations: [], pairs: [] },
};

describe('with thousands of pending events, none due', () => {
  it('a backlog claim takes none and reads none of them', async () => {
    const { result, read } = await entriesRead((tx) => claimBacklog(tx, claimOptions));
    expect(result).toEqual([]);
    expect(read).toBeLessThan(10);
  });

  it('the due-backlog gauge counts none and reads none of them', async () => {
    const { result, read } = await entriesRead((tx) => dueBacklog(tx));
    expect(result).toBe(0);
    expect(read).toBeLessThan(10);
  });

  it('the service reads them without JIT compilation', async () => {
    const [row] = await rawQuery<{ jit: string }>(orm.em.fork(), 'show jit');
    expect(row?.jit).toBe('off');
  });
});
