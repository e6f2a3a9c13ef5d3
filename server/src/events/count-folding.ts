import type { MikroORM } from '@mikro-orm/postgresql';
import { type ExclusiveJob, type JobSetting, createExclusiveJob } from '../shared/exclusive-job.js';
import { foldEventCounts } from './store/event-counts.js';

/** Scopes folded per statement; a run folds until fewer were left. */
const SCOPES_PER_FOLD = 1000;
// Any fixed number: the same in every process on one database (4311120261–4 are taken).
const FOLDING_LOCK = 4_311_120_265;

/**
 * Keeps the event counts folded (migration event_counts), so that a total sums a few rows however
 * many writes came since: every two seconds, one process at a time. Folds are safe concurrently;
 * the lock only saves the work twice.
 */
export function createCountFolding(options: JobSetting & { orm: MikroORM }): ExclusiveJob<{ rows: number }> {
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
      for (;;) {
        const folded = await foldEventCounts(options.orm.em.fork(), SCOPES_PER_FOLD);
        rows += folded;
        if (folded < SCOPES_PER_FOLD || control.shouldStop()) return { rows };
      }
    },
    { rows: 0 },
  );
}
