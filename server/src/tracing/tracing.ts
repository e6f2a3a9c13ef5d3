import type { Logger } from 'pino';
import type { TracingConfig } from './tracing-config.js';
import type { Tracing } from './otel.js';

export type { Tracing } from './otel.js';

/**
 * Starts tracing when it is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`); otherwise returns undefined
 * without loading the SDK, and nothing on the request or delivery path does any tracing work.
 */
export async function startTracing(
  config: TracingConfig | undefined,
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!config) return undefined;
  const { createTracing } = await import('./otel.js');
  return createTracing(config, logger);
}
