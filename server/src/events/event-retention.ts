import type { MikroORM } from '@mikro-orm/postgresql';
import pg, { type ClientConfig } from 'pg';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { rawQuery } from '../shared/raw-query.js';
import { deleteExpiredChains } from './store/expiry.js';
import { pauseAfterBatch, retentionCutoff } from './retention.rules.js';

/** How long a team's finished events are kept, in ms (0 keeps them forever). */
export type RetentionFor = (teamId: string) => number | Promise<number>;

export interface RetentionOptions {
  orm: MikroORM;
  /** For the session that holds the advisory lock while a run lasts. */
  connection: ClientConfig;
  retentionFor: RetentionFor;
  registry: Registry;
  logger: Logger;
  now?: () => Date;
  /** The first run starts this long after `start()` (the process settles first). */
  firstRunAfterMs?: number;
  /** A run starts this long after the previous one ended. */
  everyMs?: number;
  /** Chains per delete statement. */
  batchChains?: number;
  /** The shortest pause between two batches (a slow batch is followed by a pause twice as long). */
  minPauseMs?: number;
  /** Most events deleted per second, pauses included. */
  maxEventsPerSecond?: number;
}

/** What one run did; `ran` is false when another process held the lock. */
export interface RetentionRun {
  ran: boolean;
  /** Delete statements that deleted something. */
  batches: number;
  chains: number;
  rows: number;
}

export interface RetentionJob {
  /** One pass over every team, unless another process is running one. */
  runOnce(): Promise<RetentionRun>;
  /** Runs after `firstRunAfterMs`, then every `everyMs` after the previous run, until stopped. */
  start(): void;
  /** Stops after the batch in progress. */
  stop(): Promise<void>;
}

// Any fixed number: the same in every process on one database (4311120261/2 are taken).
const RETENTION_LOCK = 4_311_120_263;

/**
 * Deletes finished events past their team's retention in the background: small batches, each its
 * own short transaction, paced so that deliveries and the API keep their latency. One process at a
 * time works (a session-level advisory lock for the run, released when its connection closes, even
 * if the process dies).
 */
export function createRetentionJob(options: RetentionOptions): RetentionJob {
  const { orm, logger, retentionFor } = options;
  const now = options.now ?? (() => new Date());
  const firstRunAfterMs = options.firstRunAfterMs ?? 10_000;
  const everyMs = options.everyMs ?? 60_000;
  const batchChains = options.batchChains ?? 250;
  const pace = {
    minPauseMs: options.minPauseMs ?? 20,
    maxEventsPerSecond: options.maxEventsPerSecond ?? 5_000,
  };
  const deleted = new Counter({
    name: 'events_deleted_total',
    help: 'Finished events (originals and their retries) deleted by retention',
    registers: [options.registry],
  });
  // How far behind retention is: alerts compare it with time() (docs/monitoring). Only the process
  // holding the lock completes passes; the others keep 0, so read it as the max over processes.
  const completed = new Gauge({
    name: 'events_retention_completed_timestamp_seconds',
    help: 'When this process last completed a retention pass over every team (Unix time; 0: never)',
    registers: [options.registry],
  });
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let wake: (() => void) | undefined;

  // A stop that came during a batch ends the pause after it at once.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) {
        resolve();
        return;
      }
      const pauseTimer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(pauseTimer);
        resolve();
      };
    });

  async function expireTeam(teamId: string, total: RetentionRun, lock: { lost: boolean }): Promise<void> {
    const cutoff = retentionCutoff(now(), await retentionFor(teamId));
    if (!cutoff) return;
    // Without its lock's session, another process may be running: this one stops.
    while (!stopping && !lock.lost) {
      const started = performance.now();
      const batch = await deleteExpiredChains(orm.em.fork(), { teamId, cutoff, chains: batchChains });
      deleted.inc(batch.rows);
      if (batch.chains > 0) total.batches += 1;
      total.chains += batch.chains;
      total.rows += batch.rows;
      const batchMs = performance.now() - started;
      logger.debug(
        { teamId, chains: batch.chains, events: batch.rows, ms: Math.round(batchMs) },
        'retention batch',
      );
      if (batch.chains < batchChains) return;
      await pause(pauseAfterBatch(batchMs, batch.rows, pace));
    }
  }

  async function runOnce(): Promise<RetentionRun> {
    const lock = new pg.Client({ ...options.connection, application_name: 'webhook-scheduler-retention' });
    const held = { lost: false };
    lock.on('error', (error) => {
      held.lost = true;
      logger.warn({ err: error }, 'retention lock connection lost');
    });
    await lock.connect();
    try {
      const [row] = (
        await lock.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [RETENTION_LOCK])
      ).rows;
      const total: RetentionRun = { ran: row?.taken === true, batches: 0, chains: 0, rows: 0 };
      if (!total.ran) return total;
      const teams = await rawQuery<{ id: string }>(orm.em.fork(), 'select id from teams order by id');
      for (const team of teams) {
        if (stopping || held.lost) break;
        await expireTeam(team.id, total, held);
      }
      if (total.rows > 0)
        logger.info({ chains: total.chains, events: total.rows }, 'retention deleted finished events');
      if (!stopping && !held.lost) completed.set(now().getTime() / 1000);
      return total;
    } finally {
      // Closing the session releases the lock.
      await lock.end();
    }
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      const run = runOnce().catch((error: unknown) => logger.warn({ err: error }, 'retention run failed'));
      running = run;
      void run.then(() => {
        running = undefined;
        if (!stopping) schedule(everyMs);
      });
    }, delayMs);
  }

  return {
    runOnce,
    start: () => schedule(firstRunAfterMs),
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}
