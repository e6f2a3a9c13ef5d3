import type { ClaimedAttempt } from '@webhook-scheduler/scheduler';
import { asDate } from '../../shared/raw-query.js';
import type { EventRow } from './event-row.js';
import { requestFrom } from '../../shared/request-columns.js';

/** An event as the scheduler reads it to make an attempt: the row, its queue row's lease, the team's secrets. */

export type AttemptRow = Pick<
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
  | 'timeout_ms'
> & {
  attempt: number;
  scheduled_at: Date | string;
  lease_token: string;
  claim_count: number;
  signing_secret: string;
  previous_signing_secret: string | null;
  destination: string;
  trace_context: string | null;
  send_traceparent: boolean;
  due_in_ms: number;
};

/**
 * Of an event `e` and its queue row `q`. `due_in_ms` reads the clock once, as the first row is
 * returned, at the statement's end: counted from when the claim comes back, it can only err late,
 * and events due at the same time are due in as long.
 */
export const ATTEMPT_COLUMNS = `e.id, e.team_id, e.cron_id, e.retry_of, e.attempt, e.scheduled_at, e.webhook_url, e.method,
  e.headers, e.payload, e.retry_config, e.timeout_ms, e.trace_context, q.lease_token, q.claim_count, q.destination,
  greatest(0, extract(epoch from e.scheduled_at - (select clock_timestamp())) * 1000)::float8 as due_in_ms`;
export function toAttempt(row: AttemptRow): ClaimedAttempt {
  return {
    id: row.id,
    teamId: row.team_id,
    cronId: row.cron_id,
    originalId: row.retry_of ?? row.id,
    attempt: row.attempt,
    scheduledAt: asDate(row.scheduled_at),
    ...requestFrom(row),
    leaseToken: row.lease_token,
    claimCount: row.claim_count,
    signingSecrets: row.previous_signing_secret
      ? [row.signing_secret, row.previous_signing_secret]
      : [row.signing_secret],
    origin: row.destination,
    traceContext: row.trace_context,
    sendTraceparent: row.send_traceparent,
    dueInMs: row.due_in_ms,
  };
}
