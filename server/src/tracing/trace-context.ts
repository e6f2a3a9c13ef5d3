import { context, propagation } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the span in progress (the API request's), to store with the event it
 * creates; null when nothing is traced. With tracing off the OpenTelemetry API is a no-op, so this
 * costs a request one empty call.
 */
export function activeTraceContext(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}
