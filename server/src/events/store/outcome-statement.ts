import type { AttemptRecord } from '@webhook-scheduler/scheduler';
import { LEASE_STILL_HELD } from './leases.js';

/**
 * The events' part of the statement that records outcomes (scheduler-store/record-outcomes.ts): its
 * input, the queue rows dequeued and the events written, and the deliveries that ended.
 */

/** The statement's parameter $1: the outcomes, one JSON object each. */
export function outcomeInput(records: AttemptRecord[]): string {
  return JSON.stringify(
    records.map((record) => ({
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
    })),
  );
}

/** The CTE `input`: the outcomes of $1 as rows `i`. */
export const INPUT = `input as (
    select * from jsonb_to_recordset($1::jsonb) as i(
      id uuid, lease_token uuid, status text, executed_at timestamptz, response_status int,
      response_headers jsonb, response_body text, response_duration int, response_error text,
      original_id uuid, original_status text)
  )`;

/** A subquery of the crons of the events in `input`, manual runs' included. */
export const CRON_IDS_OF_INPUT = `select e.cron_id from events e where e.id = any(array(select id from input)) and e.cron_id is not null`;

/** {@link CRON_IDS_OF_INPUT} but of the outcomes other than a first attempt's success. */
export const CRON_IDS_OF_INPUT_NOT_SUCCEEDED_AT_ONCE = `select e.cron_id from events e
    where e.id = any(array(select id from input where not (status = 'success' and original_id = id)))
      and e.cron_id is not null`;

/**
 * CTEs that dequeue and write the outcomes whose lease still holds, once the CTE `lockedFirst` has
 * run, and settle the originals of retries that end a delivery. `recorded` has a row per attempt
 * written; `finals` one per delivery that ended: the original as just written (the columns read
 * are never updated), or the original of a retry that ended it.
 */
export function recordOutcomeCtes(lockedFirst: string): string {
  return `dequeued as (
    -- The lease is checked on the queue row, which the delete locks: an outcome whose lease was
    -- taken over meanwhile records nothing. The count is a one-time condition, evaluated before the
    -- delete reads a row: ${lockedFirst} has run by then.
    delete from event_queue q using input i
    where ${LEASE_STILL_HELD} and (select count(*) from ${lockedFirst}) >= 0
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
  ), settled as (
    update events o set status = r.original_status, updated_at = clock_timestamp()
    from recorded r
    where o.id = r.original_id and r.original_status is not null and o.status = 'processing'
  ), finals as (
    select r.id, r.team_id, r.cron_id, r.triggered, r.alert, r.scheduled_at, r.webhook_url,
           r.status as final_status, r.executed_at, r.response_status, r.response_error
    from recorded r
    where r.id = r.original_id and r.status in ('success', 'failed')
    union all
    select o.id, o.team_id, o.cron_id, o.triggered, o.alert, o.scheduled_at, o.webhook_url,
           r.original_status, r.executed_at, r.response_status, r.response_error
    from recorded r join events o on o.id = r.original_id
    where r.original_status is not null
  )`;
}

/**
 * Whether a recorded attempt `r` leaves its delivery open for a retry: a delivery ended meanwhile
 * (its cron was replaced: docs/reference/behaviour.md#cron-redefinition) gets none. An original just
 * recorded is open: its row was pending.
 */
export const STILL_OPEN = `case when r.id = r.original_id then true
              else coalesce((select o.status in ('pending', 'processing') from events o where o.id = r.original_id), false)
         end`;

/** The `data` of an `event.failed` alert (contract `EventFailedAlertData`) of a row `f` of `finals`. */
export function eventFailedData(f: string): string {
  return `jsonb_build_object('event_id', ${f}.id, 'cron_id', ${f}.cron_id, 'webhook_url', ${f}.webhook_url,
           'scheduled_at', ${f}.scheduled_at, 'response_status', ${f}.response_status,
           'response_error', ${f}.response_error)`;
}
