import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttemptRecord, ClaimedAttempt, RetryAttempt, Timers } from '@webhook-scheduler/scheduler';
import { asDate, rawQuery } from '../../db/raw-query.js';
import type { EventRow } from './event-row.js';
import { type PendingEvent, insertPendingEvents } from './pending-events.js';

/** The scheduler's statements on events: claims, outcomes, releases and lease recovery. */

type AttemptRow = Pick<
  EventRow,
  | 'id'
  | 'team_id'
  | 'cron_id'
  | 'retry_of'
  | 'webhook_url'
  | 'method'
  | 'headers'
  | 'payload'
  | 'retry_config'
> & {
  attempt: number;
  scheduled_at: Date | string;
  lease_token: string;
  claim_count: number;
  signing_secret: string;
  previous_signing_secret: string | null;
};

const ATTEMPT_COLUMNS = `e.id, e.team_id, e.cron_id, e.retry_of, e.attempt, e.scheduled_at, e.webhook_url, e.method,
  e.headers, e.payload, e.retry_config, e.lease_token, e.claim_count`;
// The previous secret signs too until its rotation grace period ends.
const SECRETS = `t.signing_secret,
  case when t.previous_secret_expires_at > clock_timestamp() then t.previous_signing_secret end as previous_signing_secret`;

function toAttempt(row: AttemptRow): ClaimedAttempt {
  return {
    id: row.id,
    teamId: row.team_id,
    cronId: row.cron_id,
    originalId: row.retry_of ?? row.id,
    attempt: row.attempt,
    scheduledAt: asDate(row.scheduled_at),
    webhookUrl: row.webhook_url,
    method: row.method,
    headers: row.headers,
    payload: row.payload,
    retryConfig: row.retry_config,
    leaseToken: row.lease_token,
    claimCount: row.claim_count,
    signingSecrets: row.previous_signing_secret
      ? [row.signing_secret, row.previous_signing_secret]
      : [row.signing_secret],
  };
}

export interface ClaimOptions {
  before: Date;
  limit: number;
  leaseMs: number;
  leaseToken: string;
  owner: number;
}

/** Leases up to `limit` pending events due now (database clock) and before `before`, oldest first. */
export async function claimDue(em: EntityManager, options: ClaimOptions): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const rows = await rawQuery<AttemptRow>(
    em,
    `with due as (
       select id from events
       where status = 'pending' and scheduled_at <= clock_timestamp() and scheduled_at < $1
       order by scheduled_at
       limit $2
       for update skip locked
     ), claimed as (
       update events e
       set status = 'processing', lease_token = $3, lease_owner = $5, claim_count = e.claim_count + 1,
           lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond', updated_at = clock_timestamp()
       from due where e.id = due.id
       returning ${ATTEMPT_COLUMNS}
     )
     select e.*, ${SECRETS} from claimed e join teams t on t.id = e.team_id order by e.scheduled_at`,
    [options.before, options.limit, options.leaseToken, options.leaseMs, options.owner],
  );
  return rows.map(toAttempt);
}

/** When the next pending event before `before` is due, or null. */
export async function nextDueAt(em: EntityManager, before: Date): Promise<Date | null> {
  const [row] = await rawQuery<{ next: Date | string | null }>(
    em,
    `select min(scheduled_at) as next from events where status = 'pending' and scheduled_at < $1`,
    [before],
  );
  return row?.next ? asDate(row.next) : null;
}

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

const RECORD = `with input as (
    select * from jsonb_to_recordset($1::jsonb) as i(
      id uuid, lease_token uuid, status text, executed_at timestamptz, response_status int,
      response_headers jsonb, response_body text, response_duration int, response_error text,
      original_id uuid, original_status text)
  ), recorded as (
    update events e
    set status = i.status, executed_at = i.executed_at, response_status = i.response_status,
        response_headers = i.response_headers, response_body = i.response_body,
        response_duration = i.response_duration, response_error = i.response_error,
        lease_token = null, lease_owner = null, lease_expires_at = null, updated_at = clock_timestamp()
    from input i
    where e.id = i.id and e.lease_token = i.lease_token and e.status = 'processing'
    returning e.id
  ), settled as (
    update events o set status = i.original_status, updated_at = clock_timestamp()
    from input i join recorded r on r.id = i.id
    where o.id = i.original_id and i.original_status is not null and o.status = 'processing'
  )
  -- A delivery ended meanwhile (its cron was replaced, decision 25) gets no further retry.
  select r.id, coalesce(o.status = 'processing', false) as open
  from recorded r join input i on i.id = r.id left join events o on o.id = i.original_id`;

const retryEvent = (retry: RetryAttempt): PendingEvent => ({
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
});

/**
 * Writes outcomes whose lease still holds (one statement) and, in the same transaction, the retries
 * they plan; returns the ids recorded.
 */
export async function recordOutcomes(
  em: EntityManager,
  timers: Timers,
  records: AttemptRecord[],
): Promise<string[]> {
  if (records.length === 0) return [];
  const params = [JSON.stringify(records.map(outcomeInput))];
  if (!records.some((record) => record.retry)) {
    return (await rawQuery<{ id: string }>(em, RECORD, params)).map((row) => row.id);
  }
  return em.transactional(async (tx) => {
    const recorded = await rawQuery<{ id: string; open: boolean }>(tx, RECORD, params);
    const open = new Set(recorded.filter((row) => row.open).map((row) => row.id));
    const retries = records.flatMap((record) =>
      record.retry && open.has(record.id) ? [retryEvent(record.retry)] : [],
    );
    await insertPendingEvents(tx, timers, retries, new Date());
    return recorded.map((row) => row.id);
  });
}

/** Puts claimed attempts back to `pending` (lease-checked). */
export async function releaseAttempts(
  em: EntityManager,
  attempts: { id: string; leaseToken: string }[],
): Promise<void> {
  if (attempts.length === 0) return;
  await rawQuery(
    em,
    `update events e
     set status = 'pending', lease_token = null, lease_owner = null, lease_expires_at = null,
         updated_at = clock_timestamp()
     from jsonb_to_recordset($1::jsonb) as i(id uuid, lease_token uuid)
     where e.id = i.id and e.lease_token = i.lease_token and e.status = 'processing'`,
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
    `select ${ATTEMPT_COLUMNS}, ${SECRETS} from events e join teams t on t.id = e.team_id
     where e.status = 'processing' and e.lease_expires_at is not null
       and (e.lease_expires_at < clock_timestamp() or e.lease_owner = any($2))
     order by e.lease_expires_at limit $1`,
    [limit, deadOwners],
  );
  return rows.map(toAttempt);
}

/** Pending events already due (for the backlog gauge). */
export async function dueBacklog(em: EntityManager): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from events where status = 'pending' and scheduled_at <= clock_timestamp()`,
  );
  return Number(row?.count ?? 0);
}
