import type { Pool, QueryConfig } from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database.js';
import { eventually } from '../testing/eventually.js';
import type { EventStore } from '../ports.js';
import { AgendaTimer, type AgendaTimerOptions } from './agenda-timer.js';
import { extendTimerHorizon } from './horizon.js';
import { SLOT_JOB, SLOT_LEAD_MS, type SlotJobData, slotOf } from './slot-jobs.js';
import { HORIZON_MS, Timers } from './timers.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

interface JobRow {
  key: string;
  next_run_at: Date;
}

const slotJobs = async (slots: number[]) =>
  (
    await database.pool.query<JobRow>(
      `select data ->> 'key' as key, next_run_at from agenda_jobs
       where name = $1 and (data ->> 'slot')::bigint = any($2) order by key`,
      [SLOT_JOB, slots],
    )
  ).rows;

/** The storage port's pending seconds, over events due at `times` (the port carries data only). */
const pendingAt = (times: Date[]): Pick<EventStore, 'pendingSlots'> => ({
  pendingSlots: (from, before) =>
    Promise.resolve([...new Set(times.filter((time) => time >= from && time < before).map(slotOf))]),
});

const coveredUntil = async () =>
  (await database.pool.query<{ covered_until: Date }>('select covered_until from timer_horizon')).rows[0]
    ?.covered_until;

describe('Timers.cover', () => {
  it('writes one job per shard of each slot, firing ahead of its second, and writes it once', async () => {
    const now = new Date();
    const slot = slotOf(new Date(now.getTime() + 60_000));
    await new Timers({ shards: 2 }).cover(database.pool, [slot], now);
    // Another process covering the same second (its own memory is empty) adds nothing.
    await new Timers({ shards: 2 }).cover(database.pool, [slot, slot], now);

    const jobs = await slotJobs([slot]);
    expect(jobs.map((job) => job.key)).toEqual([`${slot}:0`, `${slot}:1`]);
    for (const job of jobs) expect(job.next_run_at.getTime()).toBe(slot * 1000 - SLOT_LEAD_MS);
  });
});

describe('extendTimerHorizon', () => {
  it('gives jobs to the pending seconds that came within the horizon, once, and moves the horizon', async () => {
    const now = new Date();
    await database.pool.query('update timer_horizon set covered_until = $1', [now]);
    const soon = new Date(now.getTime() + 90_000);
    const edge = new Date(now.getTime() + HORIZON_MS - 1000);
    const beyond = new Date(now.getTime() + HORIZON_MS + 60_000);
    const store = pendingAt([soon, edge, beyond]);
    const timers = new Timers({ shards: 1 });

    expect(await extendTimerHorizon(database.pool, store, timers, now)).toBe(2);
    expect((await slotJobs([slotOf(soon), slotOf(edge), slotOf(beyond)])).map((job) => job.key)).toEqual([
      `${slotOf(soon)}:0`,
      `${slotOf(edge)}:0`,
    ]);
    expect(await coveredUntil()).toEqual(new Date(now.getTime() + HORIZON_MS));
    // Covered already: nothing new until time moves on.
    expect(await extendTimerHorizon(database.pool, store, timers, now)).toBe(0);
    const later = new Date(now.getTime() + 2 * 60_000);
    expect(await extendTimerHorizon(database.pool, store, timers, later)).toBe(1);
    expect(await slotJobs([slotOf(beyond)])).toHaveLength(1);
  });

  it('skips while another process extends it', async () => {
    const now = new Date();
    await database.pool.query('update timer_horizon set covered_until = $1', [now]);
    const other = await database.pool.connect();
    try {
      await other.query('begin');
      await other.query('select covered_until from timer_horizon for update');
      const store = pendingAt([new Date(now.getTime() + 30_000)]);
      expect(await extendTimerHorizon(database.pool, store, new Timers({ shards: 1 }), now)).toBe(0);
      await other.query('rollback');
    } finally {
      other.release();
    }
    expect(await coveredUntil()).toEqual(now);
  });
});

/** A timer over the test database that polls every 100 ms, with the test's callbacks and settings. */
const testTimer = (
  name: string,
  options: Pick<AgendaTimerOptions, 'onSlot' | 'onReconcile'> & Partial<AgendaTimerOptions>,
) =>
  new AgendaTimer({
    pool: database.pool,
    name,
    logger: pino({ level: 'silent' }),
    processEveryMs: 100,
    slotConcurrency: 2,
    slotLockLifetimeMs: 10_000,
    reconcileEveryMs: 60_000,
    ...options,
  });

/** `pool` counting Agenda's lock statements (its poll for a job of a name) by job name. */
function countingLockPolls(pool: Pool): { pool: Pool; polls: Map<string, number> } {
  const polls = new Map<string, number>();
  const query = (text: string | QueryConfig, values?: unknown[]): unknown => {
    const config: QueryConfig = typeof text === 'string' ? { text, values: values ?? [] } : text;
    if (config.text.includes('SET locked_at = $1, last_modified_by = $5')) {
      const name = String(config.values?.[1]);
      polls.set(name, (polls.get(name) ?? 0) + 1);
    }
    return pool.query(config);
  };
  const counting = new Proxy(pool, {
    get(target, key) {
      if (key === 'query') return query;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { pool: counting, polls };
}

describe('AgendaTimer', () => {
  // An Agenda polls for every job name it knows at each tick: in the slots' Agenda, the reconcile
  // job's name doubled the statements of a timer with nothing to do.
  it("polls for the reconcile job at half its interval, not at the slots' pace, and runs it on time", async () => {
    const { pool, polls } = countingLockPolls(database.pool);
    let reconciled = 0;
    const timer = testTimer('poll-count-test', {
      pool,
      processEveryMs: 50,
      reconcileEveryMs: 1000,
      onSlot: () => Promise.resolve(true),
      onReconcile: () => {
        reconciled += 1;
        return Promise.resolve();
      },
    });
    await timer.start();
    try {
      await eventually(
        () => Promise.resolve(reconciled),
        (count) => count >= 4,
        30_000,
      );
    } finally {
      await timer.drain(5000);
    }
    const slotPolls = polls.get(SLOT_JOB) ?? 0;
    const reconcilePolls = polls.get('reconcile') ?? 0;
    // Four runs take at least three intervals: some 60 slot polls at 50 ms. The reconciler polls twice
    // an interval, and once more after each job it locks.
    expect(slotPolls).toBeGreaterThanOrEqual(30);
    expect(reconcilePolls).toBeLessThan(slotPolls / 3);
  });

  it('runs the job of a covered slot when its second comes, removes it, and reconciles', async () => {
    const fired: SlotJobData[] = [];
    let reconciled = 0;
    const timer = testTimer('timer-test', {
      onSlot: (slot) => {
        fired.push(slot);
        return Promise.resolve(true);
      },
      onReconcile: () => {
        reconciled += 1;
        return Promise.resolve();
      },
    });
    await timer.start();
    try {
      const now = new Date();
      const slot = slotOf(new Date(now.getTime() + 1500));
      await new Timers({ shards: 1 }).cover(database.pool, [slot], now);

      await eventually(
        () => Promise.resolve(fired),
        (slots) => slots.some((data) => data.slot === slot),
      );
      // Not before its second's lead time.
      expect(Date.now()).toBeGreaterThanOrEqual(slot * 1000 - SLOT_LEAD_MS);
      expect(fired.filter((data) => data.slot === slot)).toEqual([{ key: `${slot}:0`, slot, shard: 0 }]);
      await eventually(
        () => slotJobs([slot]),
        (jobs) => jobs.length === 0,
      );
      await eventually(
        () => Promise.resolve(reconciled),
        (count) => count >= 1,
      );
    } finally {
      await timer.drain(5000);
    }
  });

  it('runs a slot once in a process, however many shards’ jobs it has, and removes them all', async () => {
    const fired: SlotJobData[] = [];
    const timer = testTimer('shards-test', {
      onSlot: async (slot) => {
        fired.push(slot);
        // Long enough for the other shard's job to start meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return true;
      },
      onReconcile: () => Promise.resolve(),
    });
    await timer.start();
    try {
      const now = new Date();
      const slot = slotOf(new Date(now.getTime() + 1500));
      await new Timers({ shards: 2 }).cover(database.pool, [slot], now);
      await eventually(
        () => slotJobs([slot]),
        (jobs) => jobs.length === 0,
      );
      expect(fired.filter((data) => data.slot === slot)).toHaveLength(1);
    } finally {
      await timer.drain(5000);
    }
  });

  it('drops at its start the jobs of seconds long past, whose events are the backlog’s, and keeps the others', async () => {
    // bench/scale `catch-up`: after a 10-minute stop, Agenda ran every missed second's job before
    // the jobs of the seconds falling due again.
    const now = new Date();
    const past = slotOf(new Date(now.getTime() - 10 * 60_000));
    const recent = slotOf(new Date(now.getTime() - 2000));
    const ahead = slotOf(new Date(now.getTime() + 97_000));
    await new Timers({ shards: 1 }).cover(database.pool, [past, recent, ahead], now);
    const fired: number[] = [];
    const timer = testTimer('stale-test', {
      onSlot: (slot) => {
        fired.push(slot.slot);
        return Promise.resolve(true);
      },
      onReconcile: () => Promise.resolve(),
    });
    await timer.start();
    try {
      await eventually(
        () => Promise.resolve(fired),
        (slots) => slots.includes(recent),
      );
      expect(fired).not.toContain(past);
      expect(await slotJobs([past])).toEqual([]);
      expect((await slotJobs([ahead])).map((job) => job.key)).toEqual([`${ahead}:0`]);
    } finally {
      await timer.drain(5000);
    }
  });
});
