import type { MikroORM } from '@mikro-orm/postgresql';
import { Counter, type Registry } from 'prom-client';
import { pauseAfterBatch } from '../shared/batch-pace.rules.js';
import {
  type ExclusiveJob,
  type JobSetting,
  type RunControl,
  createExclusiveJob,
} from '../shared/exclusive-job.js';
import { deleteExpiredKeys } from './idempotency.service.js';

export interface IdempotencySweepOptions extends JobSetting {
  orm: MikroORM;
  registry: Registry;
  /** The clock records expire by (a test moves it past the 24 h). */
  now?: () => Date;
  /** Records per delete statement. */
  batchRows?: number;
  /** The shortest pause between two batches (a slow batch is followed by a pause twice as long). */
  minPauseMs?: number;
  /** Most records deleted per second, pauses included. */
  maxRowsPerSecond?: number;
}

/** What one run deleted (its result also says `ran: false` when another process held the lock). */
export interface SweepTotals {
  /** Delete statements that deleted something. */
  batches: number;
  rows: number;
}

/** The sweep in the background: `runOnce()`, `start()` and `stop()`. */
export type IdempotencySweep = ExclusiveJob<SweepTotals>;

// Any fixed number: the same in every process on one database (4311120261/2/3 are taken).
const SWEEP_LOCK = 4_311_120_264;

/**
 * Deletes expired `Idempotency-Key` records in the background, whether requests come or not: a
 * stored answer may hold a receiver's credentials in its headers and must not outlive its 24 h.
 * Small batches, each its own short statement, paced; one process at a time (see
 * {@link createExclusiveJob}).
 */
export function createIdempotencySweep(options: IdempotencySweepOptions): IdempotencySweep {
  const { orm, logger } = options;
  const now = options.now ?? (() => new Date());
  const batchRows = options.batchRows ?? 500;
  const pace = { minPauseMs: options.minPauseMs ?? 20, maxRowsPerSecond: options.maxRowsPerSecond ?? 10_000 };
  const deleted = new Counter({
    name: 'idempotency_keys_deleted_total',
    help: 'Expired Idempotency-Key records deleted by the background sweep',
    registers: [options.registry],
  });

  async function sweep(control: RunControl): Promise<SweepTotals> {
    const total: SweepTotals = { batches: 0, rows: 0 };
    // One cutoff per run: records that expire while it runs wait for the next one.
    const cutoff = now();
    while (!control.shouldStop()) {
      const started = performance.now();
      const rows = await deleteExpiredKeys(orm.em.fork(), cutoff, batchRows);
      deleted.inc(rows);
      if (rows > 0) total.batches += 1;
      total.rows += rows;
      if (rows < batchRows) break;
      await control.pause(pauseAfterBatch(performance.now() - started, rows, pace));
    }
    if (total.rows > 0) logger.info({ records: total.rows }, 'deleted expired idempotency keys');
    return total;
  }

  return createExclusiveJob(
    { ...options, lockId: SWEEP_LOCK, applicationName: 'webhook-scheduler-idempotency-sweep' },
    sweep,
    { batches: 0, rows: 0 },
  );
}
