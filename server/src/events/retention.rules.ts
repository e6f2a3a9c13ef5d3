/** When retention keeps or deletes a finished chain, and how fast it goes: pure, `now` passed in. */

/**
 * The instant before which a finished chain's last attempt must have ended for it to be deleted, or
 * null when nothing is deleted (`0` keeps events forever). A chain that ended exactly `retentionMs`
 * ago is not older than the retention, so it stays.
 */
export function retentionCutoff(now: Date, retentionMs: number): Date | null {
  if (retentionMs <= 0) return null;
  return new Date(now.getTime() - retentionMs);
}

/** How fast retention may go. */
export interface RetentionPace {
  /** The shortest pause between two batches. */
  minPauseMs: number;
  /** Most events deleted per second, pauses included. */
  maxEventsPerSecond: number;
}

/**
 * The pause after a batch that took `batchMs` and deleted `events`: at least `minPauseMs`; at least
 * twice as long as the batch took, so that retention works at most a third of the time and backs off
 * by itself when PostgreSQL is slow or busy; and long enough that the batch and its pause together
 * stay under `maxEventsPerSecond`.
 */
export function pauseAfterBatch(batchMs: number, events: number, pace: RetentionPace): number {
  const forRate = (events * 1000) / pace.maxEventsPerSecond - batchMs;
  return Math.ceil(Math.max(pace.minPauseMs, 2 * batchMs, forRate));
}
