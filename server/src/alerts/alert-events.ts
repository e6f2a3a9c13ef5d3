import { newEventId } from '@webhook-scheduler/scheduler';
import type { PendingEvent } from '../events/store/pending-events.js';

/** Alerts are retried like any event. */
export const ALERT_RETRY = { maxRetries: 5, backoffMs: 1000, backoffType: 'exponential' } as const;

/**
 * The signed message a team's alert URL receives, `{ type, created_at, data }`, as a pending event of
 * the team (delivered and retried like any other, never alerting about itself); none without a URL.
 */
export function alertEvent(
  teamId: string,
  alertUrl: string | null,
  type: string,
  data: Record<string, unknown>,
  now: Date,
): PendingEvent[] {
  if (!alertUrl) return [];
  return [
    {
      id: newEventId(),
      teamId,
      cronId: null,
      retryOf: null,
      attempt: 0,
      scheduledAt: now,
      webhookUrl: alertUrl,
      method: 'POST',
      headers: null,
      payload: { type, created_at: now.toISOString(), data },
      retryConfig: ALERT_RETRY,
      alert: true,
    },
  ];
}
