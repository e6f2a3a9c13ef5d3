import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { OPEN_SHARES as shares } from '@webhook-scheduler/scheduler/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog } from './claims.js';
import { releaseDestinations } from './destination-reconcile.js';

// A claim and the reconcile never wait for a queue row another transaction holds (the lock order of
// docs/guides/operations.md): a claim that parked a held destination's rows in one statement waited
// for a row an API transaction held while holding rows that transaction wanted next, and PostgreSQL
// found a deadlock (CI, cron-writes-concurrency.int.test.ts, 2026-11-27).

const PAUSED = 'https://paused.example.com';

let database: TestDatabase;
let orm: MikroORM;
let team: string;

/** Runs `work` while another transaction holds the queue row of one of the team's events. */
async function whileOneRowIsHeld<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = () => {};
  const locked = new Promise<void>((resolve) => (held = resolve));
  const holder = orm.em.fork().transactional(async (tx) => {
    await rawQuery(tx, `select event_id from event_queue where team_id = $1 limit 1 for update`, [team]);
    held();
    await released;
  });
  await locked;
  try {
    // Were it to wait, the lock timeout would end it with an error instead of a hang.
    return await orm.em.fork().transactional(async (tx) => {
      await rawQuery(tx, `set local lock_timeout = '10s'`);
      return work(tx);
    });
  } finally {
    release();
    await holder;
  }
}

async function parked(): Promise<number> {
  const [row] = await rawQuery<{ n: string }>(
    orm.em.fork(),
    `select count(*) as n from event_queue where team_id = $1 and parked_until is not null`,
    [team],
  );
  return Number(row?.n);
}

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 4);
  team = await makeTeam(orm.em.fork(), 'paused');
  await rawQuery(orm.em.fork(), `insert into destinations (team_id, origin, paused) values ($1, $2, true)`, [
    team,
    PAUSED,
  ]);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});
beforeEach(async () => {
  await rawQuery(orm.em.fork(), `delete from events where team_id = $1`, [team]);
  await makeDueEvents(orm.em.fork(), {
    teamId: team,
    origin: PAUSED,
    count: 3,
    at: new Date(Date.now() - 1000),
  });
});

describe('the claims and the reconcile beside a transaction holding a queue row', () => {
  it('a claim parks the paused destination’s rows it can lock and skips the held one', async () => {
    const claimed = await whileOneRowIsHeld((tx) =>
      claimBacklog(tx, { limit: 10, leaseMs: 60_000, leaseToken: randomUUID(), owner: 1, shares }),
    );
    expect(claimed).toEqual([]);
    expect(await parked()).toBe(2);
  });

  it('the reconcile releases the rows whose hold ended that it can lock, and the rest next time', async () => {
    await rawQuery(
      orm.em.fork(),
      `update event_queue set parked_until = now() - interval '1 second' where team_id = $1`,
      [team],
    );
    expect(await whileOneRowIsHeld((tx) => releaseDestinations(tx))).toBe(2);
    expect(await parked()).toBe(1);
    expect(await releaseDestinations(orm.em.fork())).toBe(1);
    expect(await parked()).toBe(0);
  });
});
