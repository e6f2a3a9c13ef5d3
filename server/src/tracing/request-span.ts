import {
  type Tracer,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { RequestHandler } from 'express';

/**
 * One SERVER span per HTTP request, continuing the caller's trace when it sends a `traceparent`.
 * The handlers run inside it, so an event created by the request can keep its trace context.
 */
export function requestSpans(tracer: Tracer): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_URL_PATH]: req.path },
      },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      // The route's pattern, not the path: ids would make every span name unique.
      const route = (req.route as { path?: unknown } | undefined)?.path;
      if (typeof route === 'string') {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    // A client that hangs up early still ends the span.
    res.once('close', end);
    context.with(trace.setSpan(parent, span), next);
  };
}
