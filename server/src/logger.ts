import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

/** The root logger; everything else logs through children of it. */
export function createLogger(level: Config['logLevel'], destination: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'webhook-scheduler' },
      redact: { paths: ['headers.authorization', 'key', 'apiKey'], censor: '[redacted]' },
    },
    pino.destination({ dest: (destination as { fd?: number }).fd ?? 1, sync: false }),
  );
}
