import type { EntityManager } from '@mikro-orm/postgresql';
import type { CronPausedAlertData, EventFailedAlertData } from '@webhook-scheduler/contract';
import {
  type AttemptRecord,
  type ClaimedAttempt,
  type RetryAttempt,
  type Timers,
} from '@webhook-scheduler/scheduler';
import { appendDeliveryMinutes } from '../../overview/store/delivery-minutes.js';
import { failureStreakSql, pausesCronSql } from '../../shared/cron-health.rules.js';
import { preparedQuery, rawQuery } from '../../shared/raw-query.js';
import { type RaisedAlert, alertEvent } from './alert-events.js';
import { ATTEMPT_COLUMNS, type AttemptRow, TEAM_COLUMNS, toAttempt } from './attempt-row.js';
import { DATABASE_NOW } from './database-clock.js';
import { dropPendingEventsOfCron } from './event-changes.js';
import { type PendingEvent, insertPendingEvents } from './pending-events.js';

/** The scheduler's other statements on events: outcomes, releases and lease recovery. */

function outcomeInput(record: AttemptRecord) {
  return {
    id: record.id,
    lease_token: record.leaseToken,
    status: record.status,
    executed_at: record.executedAt,
    response_status: record.responseStatus,
    response_headers: record.responseHeaders,
    response_body: record.responseBody,
    response_duration: record.responseDuration,
    // PostgreSQL text cannot hold NUL; an error message may quote one.
    response_error: record.responseError?.replaceAll('\u0000', '\uFFFD') ?? null,
    original_id: record.originalId,
    original_status: record.originalStatus,
  };
}

/**
 * The queue rows `q` of the `input` rows `i` whose lease the input still holds. The id array steers
 * the planner to the primary key: an equality on the lease would let it read the whole lease index,
 * every call in flight. With a non-null input, `is not distinct from` means the same as `=`.
 */
const LEASE_STILL_HELD = `q.event_id = any(array(select id from input)) and q.event_id = i.id
  and q.lease_token is not distinct from i.lease_token and i.lease_token is not null`;

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

// The end of a delivery: an original that needs no retry, or a retry that settles its original.
// For a cron's occurrence (not a manual run) the same statement keeps the cron's health: the
// failure streak, the last run, and the pause once the streak reaches pause_after_failures. The
// cron rows are locked first, before any queue or event row (the order of docs/guides/operations.md,
// "Locks", which cron writes follow too), so two scheduler processes count one after the other and
// only the one whose count crosses the threshold pauses it (and alerts).
const RECORD = `with input as (
    select * from jsonb_to_recordset($1::jsonb) as i(
      id uuid, lease_token uuid, status text, executed_at timestamptz, response_status int,
      response_headers jsonb, response_body text, response_duration int, response_error text,
      original_id uuid, original_status text)
  ), cron_locks as (
    -- Manual runs' crons too: a retry of one refers to its cron (for key share) further on.
    select c.id from crons c
    where c.id = any(array(
      select e.cron_id from events e where e.id = any(array(select id from input)) and e.cron_id is not null))
    order by c.id
    for no key update of c
  ), dequeued as (
    -- The lease is checked on the queue row, which the delete locks: an outcome whose lease was
    -- taken over meanwhile records nothing. The count is a one-time condition, evaluated before the
    -- delete reads a row: the crons are locked by then.
    delete from event_queue q using input i
    where ${LEASE_STILL_HELD} and (select count(*) from cron_locks) >= 0
    returning q.event_id, q.claim_count
  ), recorded as (
    update events e
    set status = i.status, executed_at = i.executed_at, response_status = i.response_status,
        response_headers = i.response_headers, response_body = i.response_body,
        response_duration = i.response_duration, response_error = i.response_error,
        claim_count = d.claim_count, updated_at = clock_timestamp()
    from dequeued d join input i on i.id = d.event_id
    where e.id = d.event_id
    -- With its input: the CTEs below read each recorded row without joining the input again.
    returning e.id, e.team_id, e.cron_id, e.triggered, e.alert, e.scheduled_at, e.webhook_url,
              i.status, i.original_id, i.original_status, i.executed_at, i.response_status, i.response_error
  ), minutes as (
    -- The Overview's rollup, appended in the same statement: no extra round trip per batch.
    ${appendDeliveryMinutes('recorded')}
  ), settled as (
    update events o set status = r.original_status, updated_at = clock_timestamp()
    from recorded r
    where o.id = r.original_id and r.original_status is not null and o.status = 'processing'
  ), finals as (
    -- An original that ended, as just written (the columns read here are never updated), and the
    -- original of a retry that ended the delivery.
    select r.id, r.team_id, r.cron_id, r.triggered, r.alert, r.scheduled_at, r.webhook_url,
           r.status as final_status, r.executed_at, r.response_status, r.response_error
    from recorded r
    where r.id = r.original_id and r.status in ('success', 'failed')
    union all
    select o.id, o.team_id, o.cron_id, o.triggered, o.alert, o.scheduled_at, o.webhook_url,
           r.original_status, r.executed_at, r.response_status, r.response_error
    from recorded r join events o on o.id = r.original_id
    where r.original_status is not null
  ), occurrences as (
    select * from finals where cron_id is not null and not triggered
  ), runs as (
    select cron_id, max(scheduled_at) filter (where final_status = 'success') as last_success,
           max(executed_at) as last_run_at,
           (array_agg(final_status order by scheduled_at desc))[1] as last_status
    from occurrences group by cron_id
  ), streaks as (
    select r.*, (select count(*) from occurrences o where o.cron_id = r.cron_id and o.final_status = 'failed'
                   and (r.last_success is null or o.scheduled_at > r.last_success))::int as failures
    from runs r
  ), locked as (
    select c.id, c.is_active, c.pause_after_failures,
           ${STREAK} as streak
    from crons c join streaks s on s.cron_id = c.id
    for no key update of c
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
  )
  -- A delivery ended meanwhile (its cron was replaced: docs/reference/behaviour.md#cron-redefinition) gets no further retry. An
  -- original just recorded is open: its row was pending.
  select 'recorded' as kind, r.id,
         case when r.id = r.original_id then true
              else coalesce((select o.status in ('pending', 'processing') from events o where o.id = r.original_id), false)
         end as open,
         r.triggered, null::uuid as team_id, null::text as alert_url, null::jsonb as subject
  from recorded r
  union all
  -- An alert never alerts about itself.
  select 'event.failed', f.id, false, null, f.team_id, t.alert_url,
         jsonb_build_object('event_id', f.id, 'cron_id', f.cron_id, 'webhook_url', f.webhook_url,
           'scheduled_at', f.scheduled_at, 'response_status', f.response_status,
           'response_error', f.response_error)
  from finals f join teams t on t.id = f.team_id
  where f.final_status = 'failed' and not f.alert and t.alert_url is not null
  union all
  select 'cron.paused', c.id, false, null, c.team_id, t.alert_url,
         jsonb_build_object('cron_id', c.id, 'webhook_url', c.webhook_url, 'consecutive_failures', c.streak,
           'paused_reason', 'failures')
  from counted c join teams t on t.id = c.team_id
  where c.paused`;

interface RecordRow {
  kind: 'recorded' | 'event.failed' | 'cron.paused';
  id: string;
  open: boolean;
  /** Of a recorded attempt: it belongs to a manual run of a cron, and so will its retry. */
  triggered: boolean | null;
  team_id: string | null;
  alert_url: string | null;
  /** Of an alert: its `data`, as the statement's jsonb_build_object makes it. */
  subject: EventFailedAlertData | CronPausedAlertData | null;
}

/**
 * The alert a row of {@link RECORD} raises. The statement builds its data, so the types are taken on
 * trust here; the alert tests parse every message sent with the contract's schema.
 */
function raisedAlerts(row: RecordRow, now: Date): PendingEvent[] {
  if (row.kind === 'recorded' || !row.team_id) return [];
  const alert: RaisedAlert =
    row.kind === 'event.failed'
      ? { type: row.kind, data: row.subject as EventFailedAlertData }
      : { type: row.kind, data: row.subject as CronPausedAlertData };
  return alertEvent(row.team_id, row.alert_url, alert, now);
}

// A manual run's retries are marked like it: the team's pending quotas count them, as its own.
const retryEvent = (retry: RetryAttempt, triggered: boolean): PendingEvent => ({
  id: retry.id,
  teamId: retry.teamId,
  cronId: retry.cronId,
  retryOf: retry.originalId,
  attempt: retry.attempt,
  scheduledAt: retry.scheduledAt,
  webhookUrl: retry.webhookUrl,
  method: retry.method,
  headers: retry.headers,
  payload: retry.payload,
  retryConfig: retry.retryConfig,
  timeoutMs: retry.timeoutMs,
  triggered,
  traceContext: retry.traceContext,
});

/**
 * A success that ends its delivery plans nothing more: no retry, no alert, no pause of its cron.
 * Outcomes that are all such need no transaction around {@link RECORD}.
 */
const endsInSuccess = (record: AttemptRecord): boolean =>
  record.status === 'success' && record.retry === null && record.originalStatus !== 'failed';

/**
 * Writes outcomes whose lease still holds (one statement, which also keeps the crons' health) and,
 * in the same transaction, the retries they plan, the pending events of crons it paused dropped
 * (docs/reference/behaviour.md#cron-redefinition), and the failure alerts; returns the ids recorded.
 */
export async function recordOutcomes(
  em: EntityManager,
  timers: Timers,
  records: AttemptRecord[],
): Promise<string[]> {
  if (records.length === 0) return [];
  const params = [JSON.stringify(records.map(outcomeInput))];
  if (records.every(endsInSuccess)) {
    const rows = await preparedQuery<RecordRow>(em, RECORD, params);
    return rows.filter((row) => row.kind === 'recorded').map((row) => row.id);
  }
  return em.transactional(async (tx) => {
    const rows = await rawQuery<RecordRow>(tx, RECORD, params);
    const recorded = rows.filter((row) => row.kind === 'recorded');
    const open = new Map(recorded.filter((row) => row.open).map((row) => [row.id, row.triggered === true]));
    const retries = records.flatMap((record) => {
      const triggered = open.get(record.id);
      return record.retry && triggered !== undefined ? [retryEvent(record.retry, triggered)] : [];
    });
    const now = new Date();
    for (const paused of rows.filter((row) => row.kind === 'cron.paused')) {
      await dropPendingEventsOfCron(tx, paused.id, now);
    }
    const alerts = rows.flatMap((row) => raisedAlerts(row, now));
    await insertPendingEvents(tx, timers, [...retries, ...alerts], now);
    return recorded.map((row) => row.id);
  });
}

/** Puts claimed attempts back in the queue, unleased (lease-checked). */
export async function releaseAttempts(
  em: EntityManager,
  attempts: { id: string; leaseToken: string }[],
): Promise<void> {
  if (attempts.length === 0) return;
  await rawQuery(
    em,
    `with input as (select * from jsonb_to_recordset($1::jsonb) as i(id uuid, lease_token uuid))
     update event_queue q
     set lease_token = null, lease_owner = null, lease_expires_at = null
     from input i
     where ${LEASE_STILL_HELD}`,
    [JSON.stringify(attempts.map(({ id, leaseToken }) => ({ id, lease_token: leaseToken })))],
  );
}

/** Attempts whose lease expired or whose owner is one of `deadOwners`. */
export async function expiredLeases(
  em: EntityManager,
  limit: number,
  deadOwners: number[],
): Promise<ClaimedAttempt[]> {
  const rows = await rawQuery<AttemptRow>(
    em,
    `select ${ATTEMPT_COLUMNS}, ${TEAM_COLUMNS}
     from event_queue q join events e on e.id = q.event_id join teams t on t.id = e.team_id
     where q.lease_token is not null
       and (q.lease_expires_at < clock_timestamp() or q.lease_owner = any($2))
     order by q.lease_expires_at limit $1`,
    [limit, deadOwners],
  );
  return rows.map(toAttempt);
}

/** Pending events already due (for the backlog gauge). */
export async function dueBacklog(em: EntityManager): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from event_queue
     where lease_token is null and parked_until is null and scheduled_at <= ${DATABASE_NOW}`,
  );
  return Number(row?.count ?? 0);
}
