import type { MikroORM } from '@mikro-orm/postgresql';
import { type ExclusiveJob, type JobSetting, createExclusiveJob } from '../shared/exclusive-job.js';
import { MINUTES_KEPT_MS, dropMinutesBefore, foldDeliveryMinutes } from './store/delivery-minutes.js';

/** Keys folded per statement; a run folds until fewer were left. */
const KEYS_PER_FOLD = 1000;
/** Old rows deleted per statement: small, so no statement holds many row locks for long. */
const DROPS_PER_STATEMENT = 5000;
// Any fixed number: the same in every process on one database (4311120261–5 are taken; 6–9 are
// left to the work going on beside this).
const MINUTES_LOCK = 4_311_120_270;

/**
 * Keeps the Overview's rollup small (migration delivery_minutes): every five seconds, one process
 * at a time, folds each team and minute's appended rows into one and drops minutes past
 * {@link MINUTES_KEPT_MS}. Folds are safe concurrently; the lock only saves the work twice.
 */
export function createMinuteFolding(
  options: JobSetting & { orm: MikroORM; now?: () => Date },
): ExclusiveJob<{ folded: number; dropped: number }> {
  const now = options.now ?? (() => new Date());
  return createExclusiveJob(
    {
      firstRunAfterMs: 5000,
      everyMs: 5000,
      ...options,
      lockId: MINUTES_LOCK,
      applicationName: 'webhook-scheduler-minute-folding',
    },
    async (control) => {
      let folded = 0;
      for (;;) {
        const rows = await foldDeliveryMinutes(options.orm.em.fork(), KEYS_PER_FOLD);
        folded += rows;
        if (rows < KEYS_PER_FOLD || control.shouldStop()) break;
      }
      const cutoff = new Date(now().getTime() - MINUTES_KEPT_MS);
      let dropped = 0;
      for (;;) {
        const rows = await dropMinutesBefore(options.orm.em.fork(), cutoff, DROPS_PER_STATEMENT);
        dropped += rows;
        if (rows < DROPS_PER_STATEMENT || control.shouldStop()) break;
      }
      return { folded, dropped };
    },
    { folded: 0, dropped: 0 },
  );
}
