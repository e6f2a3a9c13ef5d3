import { type EntityManager, TransactionPropagation } from '@mikro-orm/postgresql';
import { type EventRequest, type Timers, webhookOrigin } from '@webhook-scheduler/scheduler';
import { preparedQuery, rawQuery, sqlExecutor } from '../../shared/raw-query.js';
import { requestBytes } from '../../shared/request-bytes.js';
import { type EventRow, eventColumns } from './event-row.js';
import { ASK_FOR_PENDING_QUOTA, type PendingQuota, pendingQuotaCheck } from '../../shared/quota-check.js';
import { requestColumns } from '../../shared/request-columns.js';

/** An event to schedule: from the API, a retry attempt, a cron occurrence — every pending event. */
export interface PendingEvent extends EventRequest {
  id: string;
  teamId: string;
  cronId: string | null;
  retryOf: string | null;
  /** 0 for an original, n for retry n. */
  attempt: number;
  scheduledAt: Date;
  /** The event a replay repeats. */
  replayOf?: string | null;
  /** A cron's manual run: outside the one-event-per-occurrence rule. */
  triggered?: boolean;
  /** A failure alert: its own failure raises none. */
  alert?: boolean;
  /** The W3C `traceparent` of the request that created it (a retry: its original's). */
  traceContext?: string | null;
}

const INSERT_ROWS = `insert into events (id, team_id, cron_id, retry_of, replay_of, triggered, alert, attempt, scheduled_at,
                                    status, webhook_url, destination, method, headers, payload, retry_config,
                                    timeout_ms, request_bytes, trace_context, created_at, updated_at)
  select d.id, d.team_id, d.cron_id, d.retry_of, d.replay_of, d.triggered, d.alert, d.attempt, d.scheduled_at,
         'pending', d.webhook_url, d.destination, d.method, d.headers, d.payload, d.retry_config, d.timeout_ms,
         d.request_bytes, d.trace_context, $2, $2
  from jsonb_to_recordset($1::jsonb) as d(id uuid, team_id uuid, cron_id uuid, retry_of uuid, replay_of uuid,
       triggered boolean, alert boolean, attempt smallint, scheduled_at timestamptz, webhook_url text, destination text,
       method text, headers jsonb, payload jsonb, retry_config jsonb, timeout_ms integer, request_bytes integer,
       trace_context text)`;
// A cron occurrence that exists already (another process materialized it) is skipped.
const ON_CONFLICT = `on conflict (cron_id, scheduled_at) where cron_id is not null and retry_of is null and not triggered
  do nothing`;
const INSERT = `${INSERT_ROWS} ${ON_CONFLICT}`;
// The same insert asking for the team's pending quotas to be checked when it commits ($3).
const INSERT_WITHIN_QUOTA = `with quota as (select ${ASK_FOR_PENDING_QUOTA('$3')})
  ${INSERT_ROWS}, quota
  ${ON_CONFLICT}`;

function insertedRow(event: PendingEvent) {
  return {
    id: event.id,
    team_id: event.teamId,
    cron_id: event.cronId,
    retry_of: event.retryOf,
    replay_of: event.replayOf ?? null,
    triggered: event.triggered ?? false,
    alert: event.alert ?? false,
    attempt: event.attempt,
    scheduled_at: event.scheduledAt,
    ...requestColumns(event),
    destination: webhookOrigin(event.webhookUrl),
    request_bytes: requestBytes(event),
    trace_context: event.traceContext ?? null,
  };
}

/**
 * The one way in for pending events: inserts them and, in the same transaction, the timer jobs of
 * the seconds they fall in (joining the caller's transaction, or opening one when a timer job is
 * needed). Returns the rows inserted, in the order given, when `returnRows` asks for them. With
 * `quota`, the commit of the transaction checks the team's pending quotas and fails when these
 * events take it past one (shared/quota-check.ts).
 */
export async function insertPendingEvents(
  em: EntityManager,
  timers: Timers,
  events: PendingEvent[],
  now: Date,
  { returnRows = false, quota }: { returnRows?: boolean; quota?: PendingQuota } = {},
): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const prepared = events.map(insertedRow);
  const drafts = JSON.stringify(prepared);
  const [statement, params] = quota
    ? [INSERT_WITHIN_QUOTA, [drafts, now, pendingQuotaCheck(quota, prepared)]]
    : [INSERT, [drafts, now]];
  const sql = returnRows ? `${statement} returning ${eventColumns()}` : statement;
  const times = events.map((event) => event.scheduledAt);
  const rows = timers.covers(times, now)
    ? await preparedQuery<EventRow>(em, sql, params)
    : await em.transactional(
        async (tx) => {
          const inserted = await rawQuery<EventRow>(tx, sql, params);
          await timers.schedule(sqlExecutor(tx), times, now);
          return inserted;
        },
        { propagation: TransactionPropagation.REQUIRED },
      );
  if (!returnRows) return [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return events.flatMap((event) => byId.get(event.id) ?? []);
}

/** {@link insertPendingEvents} for one event that must be inserted (not a cron occurrence that may exist). */
export async function insertPendingEvent(
  em: EntityManager,
  timers: Timers,
  event: PendingEvent,
  now: Date,
): Promise<EventRow> {
  const [row] = await insertPendingEvents(em, timers, [event], now, { returnRows: true });
  if (!row) throw new Error('insert returned no row');
  return row;
}
