import type { Destination } from '@webhook-scheduler/contract';
import { healthOf, rateLimitOf } from './store/destination-row.js';
import type { DestinationListing } from './store/destination-queries.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A listed destination and its calls in flight (pending in their rows until recorded). */
export function toDestinationDto(row: DestinationListing, inFlight: number): Destination {
  const health = healthOf(row);
  const lastCallAt = row.last_call_at === null ? null : new Date(row.last_call_at);
  return {
    origin: row.origin,
    pending: Math.max(0, Number(row.pending) - inFlight),
    in_flight: inFlight,
    calls_24h: Number(row.calls_24h),
    failures_24h: Number(row.failures_24h),
    last_status: row.last_status,
    last_response_status: row.last_response_status,
    last_call_at: iso(lastCallAt),
    circuit: health.circuit,
    open_until: health.circuit === 'open' ? iso(health.openUntil) : null,
    retry_after_until:
      health.retryAfterUntil && health.retryAfterUntil > new Date() ? iso(health.retryAfterUntil) : null,
    rate_limit: rateLimitOf(row),
    max_in_flight: row.max_in_flight,
    paused: row.paused,
  };
}
