import { failureStreakSql, pausesCronSql } from './cron-health.rules.js';
import { lastRunAt } from './cron-store.js';

/**
 * The crons' part of the statement that records outcomes (scheduler-store/record-outcomes.ts): locking
 * the crons of the events recorded, and their health after occurrences end.
 */

/**
 * Locks, in id order, the crons of `cronIds` (a subquery) that the outcomes may change, and returns
 * what their health is counted from: the crons of `mayChange` (a subquery of those whose outcome is
 * not a first attempt's success), and any not yet healthy (a streak, or no success last). A healthy
 * cron whose occurrence succeeded at once stays as it is, unlocked and unwritten: its last run is
 * read from that occurrence ({@link lastRunAt}). Before, every run rewrote its cron, and a
 * five-minute mark left a fifth to half of `crons` dead rows (bench/README.md, bench/scale).
 * Locked, a row is read again as committed meanwhile, so a cron another process just left healthy
 * is not written either. The statement touches each cron locked once to lock it and once to write it.
 */
export function lockCrons(cronIds: string, mayChange: string): string {
  return `select c.id, c.is_active, c.pause_after_failures, c.consecutive_failures from crons c
    where c.id = any(array(${cronIds}))
      and (c.consecutive_failures <> 0 or c.last_status is distinct from 'success'
           or c.id = any(array(${mayChange})))
    order by c.id
    for no key update of c`;
}

// A cron's failure streak and pause (docs/reference/behaviour.md#auto-pause), over the CTEs below.
const STREAK = failureStreakSql({
  previous: 'g.previous',
  lastSuccess: 'g.last_success',
  failuresSinceSuccess: 'g.failures',
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
 *
 * Each step reads its CTEs once, in one pass or one grouping, never a CTE per row of another: the
 * planner cannot know how many rows a CTE holds, guessed one, and joined them in nested loops (a
 * batch of 498 occurrences of as many crons compared 250,000 pairs twice and took 250 ms;
 * bench/README.md, 2026-11-29 morning).
 */
export function cronHealthCtes(occurrences: string, locks: string): string {
  return `runs as (
    select cron_id, last_success, max(executed_at) as last_run_at,
           (array_agg(final_status order by scheduled_at desc))[1] as last_status,
           count(*) filter (where final_status = 'failed' and (last_success is null or scheduled_at > last_success))::int
             as failures
    from (select o.cron_id, o.final_status, o.scheduled_at, o.executed_at,
                 max(o.scheduled_at) filter (where o.final_status = 'success') over (partition by o.cron_id)
                   as last_success
          from ${occurrences} o) o
    group by cron_id, last_success
  ), locked as (
    -- Each cron's row as locked beside its runs, grouped by cron rather than joined.
    select g.id, g.is_active, g.pause_after_failures, g.last_status, g.last_run_at, ${STREAK} as streak
    from (select id, bool_or(is_active) as is_active, max(pause_after_failures) as pause_after_failures,
                 max(consecutive_failures) as previous, max(last_success) as last_success,
                 max(failures) as failures, max(last_status) as last_status, max(last_run_at) as last_run_at
          from (select c.id, c.is_active, c.pause_after_failures, c.consecutive_failures,
                       null::timestamptz as last_success, null::int as failures, null::text as last_status,
                       null::timestamptz as last_run_at
                from ${locks} c
                union all
                select r.cron_id, null, null, null, r.last_success, r.failures, r.last_status, r.last_run_at
                from runs r) lock_and_runs
          group by id
          having count(*) = 2) g
  ), counted as (
    update crons c
    set consecutive_failures = l.streak, last_status = l.last_status,
        last_run_at = greatest(${lastRunAt('c')}, l.last_run_at),
        is_active = c.is_active and not ${PAUSES},
        paused_reason = case when ${PAUSES} then 'failures' else c.paused_reason end
    from locked l
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
