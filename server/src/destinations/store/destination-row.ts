import type { CircuitState, DestinationRateLimit, RateLimitPer } from '@webhook-scheduler/contract';
import type { DestinationHealth } from '../circuit.rules.js';
import { asDateOrNull } from '../../shared/raw-query.js';

/**
 * This folder owns `destinations` (a team's settings and its calls' health per origin), its
 * `destination_counts` and `destination_hours`, and the parking of `event_queue` rows: every
 * statement on them lives here. Bound SQL, not an entity: the outcome path writes these rows.
 */

/** A `destinations` row as PostgreSQL returns it (timestamps may come as text). */
export interface DestinationRow {
  team_id: string;
  origin: string;
  rate_limit_requests: number | null;
  rate_limit_per: RateLimitPer | null;
  max_in_flight: number | null;
  paused: boolean;
  circuit: CircuitState;
  consecutive_failures: number;
  open_until: Date | string | null;
  cooldown_ms: number;
  probe_event_id: string | null;
  retry_after_until: Date | string | null;
  last_call_at: Date | string | null;
  last_status: 'success' | 'failed' | null;
  last_response_status: number | null;
}

/** The columns of a {@link DestinationRow}, from `d`. */
export const DESTINATION_COLUMNS = `d.team_id, d.origin, d.rate_limit_requests, d.rate_limit_per, d.max_in_flight,
  d.paused, d.circuit, d.consecutive_failures, d.open_until, d.cooldown_ms, d.probe_event_id, d.retry_after_until,
  d.last_call_at, d.last_status, d.last_response_status`;

export function healthOf(row: DestinationRow): DestinationHealth {
  return {
    circuit: row.circuit,
    consecutiveFailures: row.consecutive_failures,
    openUntil: asDateOrNull(row.open_until),
    cooldownMs: row.cooldown_ms,
    probeEventId: row.probe_event_id,
    retryAfterUntil: asDateOrNull(row.retry_after_until),
  };
}

export function rateLimitOf(
  row: Pick<DestinationRow, 'rate_limit_requests' | 'rate_limit_per'>,
): DestinationRateLimit | null {
  return row.rate_limit_requests !== null && row.rate_limit_per !== null
    ? { requests: row.rate_limit_requests, per: row.rate_limit_per }
    : null;
}
