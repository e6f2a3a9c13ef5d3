import type { EventRequest } from './ports.js';

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
