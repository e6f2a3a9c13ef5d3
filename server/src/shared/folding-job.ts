import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type ExclusiveJob, type JobSetting, createExclusiveJob } from './exclusive-job.js';

/** Folds up to `limit` keys of appended counts into one row each; returns the rows folded. */
export type Fold = (em: EntityManager, limit: number) => Promise<number>;

/** Keys folded per statement; a run folds until fewer were left. */
const KEYS_PER_FOLD = 1000;
// Any fixed number: the same in every process on one database (4311120261–4 are taken).
const FOLDING_LOCK = 4_311_120_265;

/**
 * Keeps appended counts folded (migration event_counts), so that a total sums a few rows however
 * many writes came since: every two seconds, one process at a time. Folds are safe concurrently;
 * the lock only saves the work twice.
 */
export function createFoldingJob(
  options: JobSetting & { orm: MikroORM; folds: Fold[] },
): ExclusiveJob<{ rows: number }> {
  return createExclusiveJob(
    {
      firstRunAfterMs: 2000,
      everyMs: 2000,
      ...options,
      lockId: FOLDING_LOCK,
      applicationName: 'webhook-scheduler-count-folding',
    },
    async (control) => {
      let rows = 0;
      for (const fold of options.folds) {
        for (;;) {
          const folded = await fold(options.orm.em.fork(), KEYS_PER_FOLD);
          rows += folded;
          if (folded < KEYS_PER_FOLD || control.shouldStop()) break;
        }
      }
      return { rows };
    },
    { rows: 0 },
  );
}
