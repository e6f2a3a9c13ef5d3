import {
  type Link,
  type TextMapPropagator,
  type Tracer,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { AttemptTracing, ClaimedAttempt, WebhookOutcome } from '@webhook-scheduler/scheduler';

/** The creating request's span, as a link: the attempt runs later, in a trace of its own. */
function creatingLink(traceparent: string | null, propagator: TextMapPropagator): Link[] {
  if (!traceparent) return [];
  const created = trace.getSpanContext(
    propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter),
  );
  return created ? [{ context: created }] : [];
}

// The URL's host and port only: a webhook URL's path and query may hold the receiver's secrets.
function target(url: string): Record<string, string | number> {
  if (!URL.canParse(url)) return {};
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return {
    [ATTR_SERVER_ADDRESS]: parsed.hostname,
    [ATTR_SERVER_PORT]: port,
    [ATTR_URL_SCHEME]: parsed.protocol.replace(':', ''),
  };
}

function record(span: ReturnType<Tracer['startSpan']>, outcome: WebhookOutcome | undefined): void {
  if (!outcome) {
    // The lease ran out before the first byte: nothing was sent, another attempt will be.
    span.setAttribute('webhook.released', true);
    return;
  }
  if (outcome.status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
  if (outcome.ok) return;
  span.setAttribute(ATTR_ERROR_TYPE, outcome.status === null ? 'no_response' : String(outcome.status));
  span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? 'failed' });
}

/** One CLIENT span per delivery attempt, linked to the trace of the request that created the event. */
export function attemptSpans(tracer: Tracer, propagator: TextMapPropagator): AttemptTracing {
  return {
    async around(attempt: ClaimedAttempt, call) {
      const span = tracer.startSpan(`webhook ${attempt.method}`, {
        kind: SpanKind.CLIENT,
        root: true,
        links: creatingLink(attempt.traceContext, propagator),
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: attempt.method,
          ...target(attempt.webhookUrl),
          'webhook.event_id': attempt.id,
          'webhook.id': attempt.originalId,
          'webhook.attempt': attempt.attempt,
          'webhook.team_id': attempt.teamId,
          ...(attempt.cronId ? { 'webhook.cron_id': attempt.cronId } : {}),
        },
      });
      const active = trace.setSpan(ROOT_CONTEXT, span);
      let traceHeaders: Record<string, string> | undefined;
      if (attempt.sendTraceparent) {
        traceHeaders = {};
        propagator.inject(active, traceHeaders, defaultTextMapSetter);
      }
      try {
        const outcome = await context.with(active, () => call(traceHeaders));
        record(span, outcome);
        return outcome;
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
