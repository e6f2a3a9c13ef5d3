import type { HttpMethod, RetryConfig } from '@webhook-scheduler/contract';
import type { EventRequest } from '@webhook-scheduler/scheduler';

/**
 * An event's request as its columns (and the API's fields) name it: the snake-case twin of the
 * scheduler's `EventRequest`, which events, crons and the API's input share.
 */
export interface RequestColumns {
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: unknown;
  retry_config: RetryConfig | null;
  /** null: the service's `WEBHOOK_TIMEOUT_MS`. */
  timeout_ms: number | null;
}

/** The names of the request's columns, in the order of {@link RequestColumns}. */
export const REQUEST_COLUMN_NAMES = [
  'webhook_url',
  'method',
  'headers',
  'payload',
  'retry_config',
  'timeout_ms',
] as const satisfies readonly (keyof RequestColumns)[];

/** The request of a row or an API input. */
export function requestFrom(columns: RequestColumns): EventRequest {
  return {
    webhookUrl: columns.webhook_url,
    method: columns.method,
    headers: columns.headers,
    payload: columns.payload,
    retryConfig: columns.retry_config,
    timeoutMs: columns.timeout_ms,
  };
}

/** A request as the columns of a row to write. */
export function requestColumns(request: EventRequest): RequestColumns {
  return {
    webhook_url: request.webhookUrl,
    method: request.method,
    headers: request.headers,
    payload: request.payload,
    retry_config: request.retryConfig,
    timeout_ms: request.timeoutMs,
  };
}
