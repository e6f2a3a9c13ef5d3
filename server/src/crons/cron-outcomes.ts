import { failureStreakSql, pausesCronSql } from './cron-health.rules.js';

/**
 * The crons' part of the statement that records outcomes (scheduler-store/record-outcomes.ts): locking
 * the crons of the events recorded, and their health after occurrences end.
 */

/**
 * Locks the crons whose ids `cronIds` (a subquery) lists, in id order, and returns what their health
 * is counted from: the statement touches each cron row once to lock it and once to write it.
 */
export function lockCrons(cronIds: string): string {
  return `select c.id, c.is_active, c.pause_after_failures, c.consecutive_failures from crons c
    where c.id = any(array(${cronIds}))
    order by c.id
    for no key update of c`;
}

// A cron's failure streak and pause (docs/reference/behaviour.md#auto-pause), over the CTEs below.
const STREAK = failureStreakSql({
  previous: 'c.consecutive_failures',
  lastSuccess: 's.last_success',
  failuresSinceSuccess: 's.failures',
});
const PAUSES = pausesCronSql({
  isActive: 'l.is_active',
  pauseAfterFailures: 'l.pause_after_failures',
  streak: 'l.streak',
});

/**
 * CTEs that keep the health of the crons whose occurrences ended: the failure streak, the last run,
 * and the pause once the streak reaches `pause_after_failures`. `occurrences` is a CTE of ended
 * occurrences with `cron_id, final_status, scheduled_at, executed_at`; `locks` the CTE of
 * {@link lockCrons} that locked their crons. The last CTE, `counted`, has a row per cron counted:
 * `id, team_id, webhook_url, streak, paused`.
 */
export function cronHealthCtes(occurrences: string, locks: string): string {
  return `runs as (
    select cron_id, max(scheduled_at) filter (where final_status = 'success') as last_success,
           max(executed_at) as last_run_at,
           (array_agg(final_status order by scheduled_at desc))[1] as last_status
    from ${occurrences} group by cron_id
  ), streaks as (
    select r.*, (select count(*) from ${occurrences} o where o.cron_id = r.cron_id and o.final_status = 'failed'
                   and (r.last_success is null or o.scheduled_at > r.last_success))::int as failures
    from runs r
  ), locked as (
    select c.id, c.is_active, c.pause_after_failures, ${STREAK} as streak
    from ${locks} c join streaks s on s.cron_id = c.id
  ), counted as (
    update crons c
    set consecutive_failures = l.streak, last_status = s.last_status,
        last_run_at = greatest(c.last_run_at, s.last_run_at),
        is_active = c.is_active and not ${PAUSES},
        paused_reason = case when ${PAUSES} then 'failures' else c.paused_reason end
    from locked l join streaks s on s.cron_id = l.id
    where c.id = l.id
    returning c.id, c.team_id, c.webhook_url, l.streak,
              ${PAUSES} as paused
  )`;
}

/** The `data` of a `cron.paused` alert (contract `CronPausedAlertData`) of a row `c` of `counted`. */
export function cronPausedData(c: string): string {
  return `jsonb_build_object('cron_id', ${c}.id, 'webhook_url', ${c}.webhook_url, 'consecutive_failures', ${c}.streak,
           'paused_reason', 'failures')`;
}
