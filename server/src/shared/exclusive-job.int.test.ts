import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createExclusiveJob } from './exclusive-job.js';

// bench/steady-rate, 2026-12-01: each run opened a lock session of its own, and the folding jobs
// alone started a PostgreSQL backend every ~1.4 s, ~17–25 ms of its CPU each.

const LOCK = 4_311_120_299;
const APPLICATION = 'webhook-scheduler-exclusive-job-test';
const logger = pino({ level: 'silent' });

let database: TestDatabase;
let observer: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  observer = new pg.Client(database.connection);
  await observer.connect();
});
afterAll(async () => {
  await observer.end();
  await database.drop();
});

/** The backends of the job's lock sessions now. */
async function lockSessions(): Promise<number[]> {
  const { rows } = await observer.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
    [APPLICATION],
  );
  return rows.map((row) => row.pid);
}

/** A job whose runs note the lock sessions open; a run throws while `failing()`. */
function countingJob(timing: { firstRunAfterMs: number; everyMs?: number }, failing = () => false) {
  const seen: number[][] = [];
  const job = createExclusiveJob(
    { lockId: LOCK, applicationName: APPLICATION, connection: database.connection, logger, ...timing },
    async () => {
      seen.push(await lockSessions());
      if (failing()) throw new Error('the run failed');
      return { runs: seen.length };
    },
    { runs: 0 },
  );
  return { job, seen };
}

it('keeps one lock session across its runs once started, and closes it when stopped', async () => {
  const { job, seen } = countingJob({ firstRunAfterMs: 0, everyMs: 20 });
  job.start();
  await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
  expect(new Set(seen.flat()).size).toBe(1);

  // Between runs the lock is free: another process takes it, and the job's runs skip meanwhile.
  await vi.waitFor(
    async () => {
      const { rows } = await observer.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [
        LOCK,
      ]);
      expect(rows[0]?.taken).toBe(true);
    },
    { timeout: 10_000 },
  );
  const runsWhileHeld = seen.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(seen.length).toBe(runsWhileHeld);
  await observer.query('select pg_advisory_unlock($1)', [LOCK]);
  await vi.waitFor(() => expect(seen.length).toBeGreaterThan(runsWhileHeld), { timeout: 10_000 });

  await job.stop();
  await vi.waitFor(async () => expect(await lockSessions()).toEqual([]), { timeout: 10_000 });
});

it('closes the lock session of a run it was not started for', async () => {
  const { job } = countingJob({ firstRunAfterMs: 0, everyMs: 60_000 });
  expect(await job.runOnce()).toEqual({ runs: 1, ran: true });
  await vi.waitFor(async () => expect(await lockSessions()).toEqual([]), { timeout: 10_000 });
});

it('closes the session of a run that failed, so that its lock goes with it', async () => {
  let fail = true;
  const { job, seen } = countingJob({ firstRunAfterMs: 60_000 }, () => fail);
  // Started, so that a run that ended well keeps its session (having unlocked).
  job.start();
  await expect(job.runOnce()).rejects.toThrow('the run failed');
  const { rows } = await observer.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [
    LOCK,
  ]);
  expect(rows[0]?.taken).toBe(true);
  await observer.query('select pg_advisory_unlock($1)', [LOCK]);
  fail = false;
  expect(await job.runOnce()).toEqual({ runs: 2, ran: true });
  expect(await job.runOnce()).toEqual({ runs: 3, ran: true });
  // The failed run's session, then one kept for the two runs after it.
  expect(new Set(seen.flat()).size).toBe(2);
  await job.stop();
  await vi.waitFor(async () => expect(await lockSessions()).toEqual([]), { timeout: 10_000 });
});
