/**
 * A cron's health after its occurrences end (docs/reference/behaviour.md#auto-pause): the streak of
 * failed occurrences and whether it pauses the cron. Recording outcomes is one SQL statement, so each
 * rule is here twice in one place: as a function that decides, and as the SQL fragment the statement
 * is built from. cron-health.rules.int.test.ts checks that both agree on PostgreSQL.
 */

/** The threshold of a cron whose `pause_after_failures` is null: no streak reaches it. */
export const NEVER_PAUSES = 2_147_483_647;

/** The occurrences of one cron that ended together. */
export interface EndedOccurrences {
  /** Whether any of them succeeded. */
  succeeded: boolean;
  /** How many failed after the last that succeeded (all of them when none did). */
  failuresSinceSuccess: number;
}

/** The streak of failed occurrences: a success starts it afresh, failures add to it. */
export function failureStreak(previous: number, ended: EndedOccurrences): number {
  return ended.succeeded ? ended.failuresSinceSuccess : previous + ended.failuresSinceSuccess;
}

/** The cron as its streak is counted: an inactive cron is not paused (again). */
export interface CronPauseRule {
  isActive: boolean;
  pauseAfterFailures: number | null;
}

/** Whether a streak pauses the cron now: it is active and the streak reached its threshold. */
export function pausesCron(cron: CronPauseRule, streak: number): boolean {
  return cron.isActive && streak >= (cron.pauseAfterFailures ?? NEVER_PAUSES);
}

/** SQL expressions (column references) of the values the fragments below read. */
export interface FailureStreakColumns {
  previous: string;
  /** Null when no occurrence of the batch succeeded. */
  lastSuccess: string;
  failuresSinceSuccess: string;
}

/** {@link failureStreak} as a SQL expression. */
export function failureStreakSql(columns: FailureStreakColumns): string {
  const { previous, lastSuccess, failuresSinceSuccess } = columns;
  return `case when ${lastSuccess} is null then ${previous} + ${failuresSinceSuccess} else ${failuresSinceSuccess} end`;
}

/** {@link pausesCron} as a SQL expression. */
export function pausesCronSql(columns: {
  isActive: string;
  pauseAfterFailures: string;
  streak: string;
}): string {
  const { isActive, pauseAfterFailures, streak } = columns;
  return `(${isActive} and ${streak} >= coalesce(${pauseAfterFailures}, ${NEVER_PAUSES}))`;
}
