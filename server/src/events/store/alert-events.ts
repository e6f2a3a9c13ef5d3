import type { AlertMessage, AlertType } from '@webhook-scheduler/contract';
import { newEventId } from '@webhook-scheduler/scheduler';
import type { PendingEvent } from './pending-events.js';

/** Alerts are retried like any event. */
const ALERT_RETRY = { maxRetries: 5, backoffMs: 1000, backoffType: 'exponential' } as const;

/** An alert message (contract/src/alerts.ts) as raised, before it gets its `created_at`. */
export type RaisedAlert = {
  [Type in AlertType]: Omit<Extract<AlertMessage, { type: Type }>, 'created_at'>;
}[AlertType];

/**
 * The signed message a team's alert URL receives, `{ type, created_at, data }`, as a pending event of
 * the team (delivered and retried like any other, never alerting about itself); none without a URL.
 */
export function alertEvent(
  teamId: string,
  alertUrl: string | null,
  alert: RaisedAlert,
  now: Date,
): PendingEvent[] {
  if (!alertUrl) return [];
  // Stored as jsonb, which keeps no key order.
  const message: AlertMessage = { ...alert, created_at: now.toISOString() };
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
      payload: message,
      retryConfig: ALERT_RETRY,
      timeoutMs: null,
      alert: true,
    },
  ];
}
