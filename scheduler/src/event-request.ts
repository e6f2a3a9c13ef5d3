import type { ClaimedAttempt, EventRequest, WebhookRequest } from './ports.js';

/** The request of an event, a cron or an attempt, and nothing else of it: what another event copies. */
export function requestOf(source: EventRequest): EventRequest {
  return {
    webhookUrl: source.webhookUrl,
    method: source.method,
    headers: source.headers,
    payload: source.payload,
    retryConfig: source.retryConfig,
    timeoutMs: source.timeoutMs,
  };
}

/** The call of an attempt. A header the event sets itself (any case) is sent as set: it comes after the trace's. */
export function callOf(attempt: ClaimedAttempt, traceHeaders?: Record<string, string>): WebhookRequest {
  return {
    url: attempt.webhookUrl,
    method: attempt.method,
    headers: traceHeaders ? { ...traceHeaders, ...attempt.headers } : attempt.headers,
    payload: attempt.payload,
    webhookId: attempt.originalId,
    signingSecrets: attempt.signingSecrets,
    timeoutMs: attempt.timeoutMs,
  };
}
