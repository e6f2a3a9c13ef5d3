/**
 * A cron's runs as its occurrences hold them: the outcome statement leaves a healthy cron's row alone
 * when its occurrence succeeds at once (crons/cron-outcomes.ts), so its last run is read from here.
 */

/**
 * The SQL expression of when the latest ended occurrence of the cron whose id is `cronId` (a column
 * reference) ran, or null: a step back along events_cron_occurrence_idx from now. An occurrence ends
 * after it is due (a call claimed ahead waits for its time, 100 ms at most), so the occurrences still
 * to come are not read, however many a cron keeps. Manual runs do not count, as in the cron's health.
 * "Ended" is spelled as neither pending nor processing: as `status in ('success', 'failed')` it is
 * the predicate of events_expiry_idx, which holds only the team's ended events, and with statistics
 * taken before many had ended the planner read that index for each cron, the team's whole history
 * (bench/README.md, bench/burst, 2026-12-01).
 */
export function latestRunOf(cronId: string): string {
  return `(select o.executed_at from events o
     where o.cron_id = ${cronId} and o.retry_of is null and not o.triggered
       and o.scheduled_at <= statement_timestamp() + interval '1 second'
       and o.status not in ('pending', 'processing') and o.executed_at is not null
     order by o.scheduled_at desc limit 1)`;
}
