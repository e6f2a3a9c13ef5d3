import type { MikroORM } from '@mikro-orm/postgresql';
import { Timers, extendTimerHorizon } from '@webhook-scheduler/scheduler';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { insertPendingEvents } from '../events/store/pending-events.js';
import { rawQuery } from '../shared/raw-query.js';
import { createEventStore } from './event-store.js';

let db: TestDatabase;
let orm: MikroORM;
let pool: pg.Pool;
let teamId: string;
const timers = new Timers({ shards: 1 });
const MINUTE = 60_000;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await createOrm(db.connection, 4);
  pool = new pg.Pool({ ...db.connection, max: 2 });
  teamId = crypto.randomUUID();
  await rawQuery(
    orm.em.fork(),
    `insert into teams (id, name, signing_secret, created_at, updated_at) values ($1, 'horizon', 'whsec_x', now(), now())`,
    [teamId],
  );
});

afterAll(async () => {
  await pool.end();
  await orm.close();
  await db.drop();
});

async function pendingAt(scheduledAt: Date): Promise<void> {
  const event = {
    id: crypto.randomUUID(),
    teamId,
    cronId: null,
    retryOf: null,
    attempt: 0,
    scheduledAt,
    webhookUrl: 'https://hooks.example/in',
    method: 'POST' as const,
    headers: null,
    payload: null,
    retryConfig: null,
    timeoutMs: null,
  };
  await insertPendingEvents(orm.em.fork(), timers, [event], new Date());
}

async function hasTimer(time: Date): Promise<boolean> {
  const rows = await rawQuery(
    orm.em.fork(),
    `select 1 from agenda_jobs where name = 'deliver-slot' and (data ->> 'slot')::bigint = $1`,
    [Math.floor(time.getTime() / 1000)],
  );
  return rows.length > 0;
}

describe('the timer horizon', () => {
  it('gives an event due within minutes its timer job at once, and one due later none until it comes near', async () => {
    const now = Date.now();
    const soon = new Date(now + 2 * MINUTE);
    const later = new Date(now + 30 * MINUTE + 123);
    await pendingAt(soon);
    await pendingAt(later);
    expect(await hasTimer(soon)).toBe(true);
    expect(await hasTimer(later)).toBe(false);

    const store = createEventStore(orm, timers, { circuitFailures: 10 });
    expect(await extendTimerHorizon(pool, store, timers, new Date(now + 20 * MINUTE))).toBe(0);
    expect(await hasTimer(later)).toBe(false);
    expect(await extendTimerHorizon(pool, store, timers, new Date(now + 27 * MINUTE))).toBe(1);
    expect(await hasTimer(later)).toBe(true);
    // Covered already: the next extension from the same time finds nothing new.
    expect(await extendTimerHorizon(pool, store, timers, new Date(now + 27 * MINUTE))).toBe(0);
  });

  it('is extended by one process at a time: another skips while one holds it', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from timer_horizon for update');
      const store = createEventStore(orm, timers, { circuitFailures: 10 });
      const later = new Date(Date.now() + 60 * MINUTE);
      await pendingAt(later);
      expect(await extendTimerHorizon(pool, store, timers, new Date(later.getTime() - MINUTE))).toBe(0);
      expect(await hasTimer(later)).toBe(false);
      await holder.query('rollback');
      expect(await extendTimerHorizon(pool, store, timers, new Date(later.getTime() - MINUTE))).toBe(1);
      expect(await hasTimer(later)).toBe(true);
    } finally {
      holder.release();
    }
  });
});
