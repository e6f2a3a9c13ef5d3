import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Counter, Gauge, type Registry } from 'prom-client';
import { pauseAfterBatch } from '../shared/batch-pace.rules.js';
import {
  type ExclusiveJob,
  type JobSetting,
  type RunControl,
  createExclusiveJob,
} from '../shared/exclusive-job.js';
import { teamIds } from '../teams/team-store.js';
import { deleteExpiredChains } from './store/expiry.js';
import { retentionCutoff } from './retention.rules.js';

/** How long a team's finished events are kept, in ms (0 keeps them forever). */
export type RetentionFor = (teamId: string) => number | Promise<number>;

export interface RetentionOptions extends JobSetting {
  orm: MikroORM;
  retentionFor: RetentionFor;
  /**
   * Runs before a team's events older than `cutoff` are deleted: what other tables read from them
   * is kept there first (a cron's last run: crons/cron-store.ts).
   */
  beforeExpiring: (em: EntityManager, teamId: string, cutoff: Date) => Promise<void>;
  registry: Registry;
  now?: () => Date;
  /** Chains per delete statement. */
  batchChains?: number;
  /** The shortest pause between two batches (a slow batch is followed by a pause twice as long). */
  minPauseMs?: number;
  /** Most events deleted per second, pauses included. */
  maxEventsPerSecond?: number;
}

/** What one run deleted (its result also says `ran: false` when another process held the lock). */
export interface RetentionTotals {
  /** Delete statements that deleted something. */
  batches: number;
  chains: number;
  rows: number;
}

/** Retention in the background: `runOnce()`, `start()` and `stop()`. */
export type RetentionJob = ExclusiveJob<RetentionTotals>;

// Any fixed number: the same in every process on one database (4311120261/2 are taken).
const RETENTION_LOCK = 4_311_120_263;

/**
 * Deletes finished events past their team's retention in the background: small batches, each its
 * own short transaction, paced so that deliveries and the API keep their latency. One process at a
 * time works (see {@link createExclusiveJob}).
 */
export function createRetentionJob(options: RetentionOptions): RetentionJob {
  const { orm, logger, retentionFor } = options;
  const now = options.now ?? (() => new Date());
  const batchChains = options.batchChains ?? 250;
  const pace = {
    minPauseMs: options.minPauseMs ?? 20,
    maxRowsPerSecond: options.maxEventsPerSecond ?? 5_000,
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

  async function expireTeam(teamId: string, total: RetentionTotals, control: RunControl) {
    const cutoff = retentionCutoff(now(), await retentionFor(teamId));
    if (!cutoff) return;
    await options.beforeExpiring(orm.em.fork(), teamId, cutoff);
    while (!control.shouldStop()) {
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
      await control.pause(pauseAfterBatch(batchMs, batch.rows, pace));
    }
  }

  async function expireAll(control: RunControl): Promise<RetentionTotals> {
    const total: RetentionTotals = { batches: 0, chains: 0, rows: 0 };
    for (const teamId of await teamIds(orm.em.fork())) {
      if (control.shouldStop()) break;
      await expireTeam(teamId, total, control);
    }
    if (total.rows > 0)
      logger.info({ chains: total.chains, events: total.rows }, 'retention deleted finished events');
    if (!control.shouldStop()) completed.set(now().getTime() / 1000);
    return total;
  }

  return createExclusiveJob(
    { ...options, lockId: RETENTION_LOCK, applicationName: 'webhook-scheduler-retention' },
    expireAll,
    { batches: 0, chains: 0, rows: 0 },
  );
}
