import { DiagLogLevel, context, diag, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AttemptTracing } from '@webhook-scheduler/scheduler';
import type { TracingConfig } from './tracing-config.js';
import { attemptSpans } from './attempt-span.js';
import { requestSpans } from './request-span.js';

const SCOPE = 'webhook-scheduler';

/** Traces of a running process: its API requests and its delivery attempts. */
export interface Tracing {
  /** One span per HTTP request (the first middleware). */
  requestSpans: RequestHandler;
  /** One span per delivery attempt (the scheduler's port). */
  attempts: AttemptTracing;
  /** Exports the spans still batched. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK, registered globally: W3C trace context, AsyncLocalStorage for the active
 * span, spans batched to the OTLP/HTTP (JSON) endpoint. Loaded only when tracing is on.
 */
export function createTracing(config: TracingConfig, logger: Logger): Tracing {
  const log = logger.child({ component: 'tracing' });
  // The SDK reports failed exports here; an unreachable collector must be visible, not fatal.
  diag.setLogger(
    {
      error: (message, ...args) => log.warn({ args }, message),
      warn: (message, ...args) => log.warn({ args }, message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers }),
      }),
    ],
  });
  const propagator = new W3CTraceContextPropagator();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(propagator);
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(SCOPE);
  return {
    requestSpans: requestSpans(tracer),
    attempts: attemptSpans(tracer, propagator),
    shutdown: async () => {
      // Exports what is still batched; the globals stay, as the process is about to exit.
      await provider.shutdown().catch((error: unknown) => {
        log.warn({ err: error }, 'could not export the last spans');
      });
    },
  };
}
