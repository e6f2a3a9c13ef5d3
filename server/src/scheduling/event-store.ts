import type { MikroORM } from '@mikro-orm/postgresql';
import type { HttpMethod, RetryConfig } from '@webhook-scheduler/contract';
import type { AttemptRecord, ClaimedAttempt, EventStore, SlotPlanner } from '@webhook-scheduler/scheduler';
import type { Logger } from 'pino';
import { materializeOccurrences, type CronDefinition } from '../crons/cron-occurrences.js';
import { asDate, rawQuery } from '../db/raw-query.js';
import { insertSlotJobs } from './slot-jobs.js';

interface AttemptRow {
  id: string;
  team_id: string;
  cron_id: string | null;
  retry_of: string | null;
  attempt: number;
  scheduled_at: Date | string;
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: unknown;
  retry_config: RetryConfig | null;
  lease_token: string;
  claim_count: number;
  signing_secret: string;
  previous_signing_secret: string | null;
}

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

// PostgreSQL text cannot hold NUL; a receiver may well send one.
const withoutNul = (text: string | null) => text?.replaceAll('\u0000', '\uFFFD') ?? null;

function recordInput(record: AttemptRecord) {
  return {
    id: record.id,
    lease_token: record.leaseToken,
    status: record.status,
    executed_at: record.executedAt?.toISOString() ?? null,
    response_status: record.responseStatus,
    response_headers: record.responseHeaders,
    response_body: record.responseBody,
    response_duration: record.responseDuration,
    response_error: withoutNul(record.responseError),
    original_id: record.originalId,
    original_status: record.originalStatus,
    retry_id: record.retry?.id ?? null,
    retry_attempt: record.retry?.attempt ?? null,
    retry_at: record.retry?.scheduledAt.toISOString() ?? null,
  };
}

/** The scheduler's storage port over the service's PostgreSQL. */
export function createEventStore(orm: MikroORM, planner: SlotPlanner, logger: Logger): EventStore {
  const em = () => orm.em.fork();

  return {
    async claimDue({ before, limit, leaseMs, leaseToken, owner }) {
      if (limit <= 0) return [];
      const rows = await rawQuery<AttemptRow>(
        em(),
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
        [before, limit, leaseToken, leaseMs, owner],
      );
      return rows.map(toAttempt);
    },

    async nextDueAt(before) {
      const [row] = await rawQuery<{ next: Date | string | null }>(
        em(),
        `select min(scheduled_at) as next from events where status = 'pending' and scheduled_at < $1`,
        [before],
      );
      return row?.next ? asDate(row.next) : null;
    },

    async record(records) {
      if (records.length === 0) return [];
      const rows = await rawQuery<{ id: string }>(
        em(),
        `with input as (
           select * from jsonb_to_recordset($1::jsonb) as i(
             id uuid, lease_token uuid, status text, executed_at timestamptz, response_status int,
             response_headers jsonb, response_body text, response_duration int, response_error text,
             original_id uuid, original_status text, retry_id uuid, retry_attempt int, retry_at timestamptz)
         ), recorded as (
           update events e
           set status = i.status, executed_at = i.executed_at, response_status = i.response_status,
               response_headers = i.response_headers, response_body = i.response_body,
               response_duration = i.response_duration, response_error = i.response_error,
               lease_token = null, lease_owner = null, lease_expires_at = null, updated_at = clock_timestamp()
           from input i
           where e.id = i.id and e.lease_token = i.lease_token and e.status = 'processing'
           returning e.id, e.team_id, e.cron_id, e.webhook_url, e.method, e.headers, e.payload, e.retry_config
         ), settled as (
           update events o set status = i.original_status, updated_at = clock_timestamp()
           from input i join recorded r on r.id = i.id
           where o.id = i.original_id and i.original_status is not null and o.status = 'processing'
         ), retried as (
           insert into events (id, team_id, cron_id, retry_of, attempt, scheduled_at, status, webhook_url, method,
                               headers, payload, retry_config, created_at, updated_at)
           select i.retry_id, r.team_id, r.cron_id, i.original_id, i.retry_attempt, i.retry_at, 'pending',
                  r.webhook_url, r.method, r.headers, r.payload, r.retry_config, clock_timestamp(), clock_timestamp()
           from input i join recorded r on r.id = i.id
           -- Only while the delivery is still open: a cron replaced meanwhile has ended it (decision 25).
           join events o on o.id = i.original_id and o.status = 'processing'
           where i.retry_id is not null
         )
         select id from recorded`,
        [JSON.stringify(records.map(recordInput))],
      );
      return rows.map((row) => row.id);
    },

    async release(attempts) {
      if (attempts.length === 0) return;
      await rawQuery(
        em(),
        `update events e
         set status = 'pending', lease_token = null, lease_owner = null, lease_expires_at = null,
             updated_at = clock_timestamp()
         from jsonb_to_recordset($1::jsonb) as i(id uuid, lease_token uuid)
         where e.id = i.id and e.lease_token = i.lease_token and e.status = 'processing'`,
        [JSON.stringify(attempts.map(({ id, leaseToken }) => ({ id, lease_token: leaseToken })))],
      );
    },

    async expiredLeases(limit, deadOwners) {
      const rows = await rawQuery<AttemptRow>(
        em(),
        `select ${ATTEMPT_COLUMNS}, ${SECRETS} from events e join teams t on t.id = e.team_id
         where e.status = 'processing' and e.lease_expires_at is not null
           and (e.lease_expires_at < clock_timestamp() or e.lease_owner = any($2))
         order by e.lease_expires_at limit $1`,
        [limit, deadOwners],
      );
      return rows.map(toAttempt);
    },

    async topUpCrons(horizonMs, limit) {
      const fork = em();
      const times: Date[] = [];
      const committed = await fork.transactional(async (tx) => {
        const crons = await rawQuery<CronRow>(
          tx,
          `select id, team_id, cron_expression, timezone, webhook_url, method, headers, payload, retry_config,
                  materialized_until
           from crons
           where is_active and (materialized_until is null or materialized_until < clock_timestamp() + $1 * interval '1 millisecond')
           order by materialized_until nulls first
           limit $2
           for update skip locked`,
          [horizonMs, limit],
        );
        const now = new Date();
        for (const row of crons) {
          try {
            times.push(...(await materializeOccurrences(tx, toCronDefinition(row), now, horizonMs)));
          } catch (error) {
            logger.error({ err: error, cronId: row.id }, 'could not materialize the occurrences of a cron');
          }
        }
        return insertSlotJobs(tx, planner, times, now);
      });
      committed();
      return times;
    },

    async dueBacklog() {
      const [row] = await rawQuery<{ count: string }>(
        em(),
        `select count(*) as count from events where status = 'pending' and scheduled_at <= clock_timestamp()`,
      );
      return Number(row?.count ?? 0);
    },
  };
}

interface CronRow {
  id: string;
  team_id: string;
  cron_expression: string;
  timezone: string | null;
  webhook_url: string;
  method: string;
  headers: Record<string, string> | null;
  payload: unknown;
  retry_config: unknown;
  materialized_until: Date | string | null;
}

function toCronDefinition(row: CronRow): CronDefinition {
  return {
    id: row.id,
    teamId: row.team_id,
    cronExpression: row.cron_expression,
    timezone: row.timezone,
    webhookUrl: row.webhook_url,
    method: row.method,
    headers: row.headers,
    payload: row.payload,
    retryConfig: row.retry_config,
    materializedUntil: row.materialized_until === null ? null : asDate(row.materialized_until),
  };
}
