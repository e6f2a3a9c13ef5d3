/** How fast a background job deletes in batches: pure, so the pace is tested without a database. */

/** How fast a job may go. */
export interface BatchPace {
  /** The shortest pause between two batches. */
  minPauseMs: number;
  /** Most rows deleted per second, pauses included. */
  maxRowsPerSecond: number;
}

/**
 * The pause after a batch that took `batchMs` and deleted `rows`: at least `minPauseMs`; at least
 * twice as long as the batch took, so that the job works at most a third of the time and backs off
 * by itself when PostgreSQL is slow or busy; and long enough that the batch and its pause together
 * stay under `maxRowsPerSecond`.
 */
export function pauseAfterBatch(batchMs: number, rows: number, pace: BatchPace): number {
  const forRate = (rows * 1000) / pace.maxRowsPerSecond - batchMs;
  return Math.ceil(Math.max(pace.minPauseMs, 2 * batchMs, forRate));
}
