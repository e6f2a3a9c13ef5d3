import { randomUUID } from 'node:crypto';
import { nextOccurrences } from '../occurrences.js';
import type { RetryAttempt } from '../ports.js';

/** A stored cron: the request its events copy, and how far its occurrences are materialized. */
export type MemoryCron = Pick<
  RetryAttempt,
  'id' | 'teamId' | 'webhookUrl' | 'method' | 'headers' | 'payload' | 'retryConfig'
> & {
  cronExpression: string;
  timezone: string | null;
  isActive: boolean;
  materializedUntil: Date | null;
};

/** A pending occurrence of a cron: an event with the cron's request. */
export type CronEvent = Pick<
  MemoryCron,
  'id' | 'teamId' | 'webhookUrl' | 'method' | 'headers' | 'payload' | 'retryConfig'
> & {
  cronId: string;
  scheduledAt: Date;
};

/** As the server: at most this many events per cron at a time; a cron with none is looked at again in an hour. */
const MAX_MATERIALIZED = 100;
const RETRY_EMPTY_AFTER_MS = 3_600_000;

const order = (cron: MemoryCron) => cron.materializedUntil?.getTime() ?? Number.NEGATIVE_INFINITY;

/**
 * The upcoming occurrences (within `horizonMs`, at least one, never before `now`) of up to `limit`
 * active crons whose horizon runs out, those never materialized first; moves their
 * `materializedUntil` past them.
 */
export function occurrencesToAdd(
  crons: MemoryCron[],
  now: Date,
  horizonMs: number,
  limit: number,
): CronEvent[] {
  const horizon = now.getTime() + horizonMs;
  const due = crons
    .filter((cron) => cron.isActive && (cron.materializedUntil?.getTime() ?? -Infinity) < horizon)
    .sort((a, b) => order(a) - order(b))
    .slice(0, limit);
  return due.flatMap((cron) => {
    const after = cron.materializedUntil && cron.materializedUntil > now ? cron.materializedUntil : now;
    let times: Date[] = [];
    try {
      times = nextOccurrences(cron.cronExpression, cron.timezone, after, {
        until: new Date(horizon),
        min: 1,
        max: MAX_MATERIALIZED,
      });
    } catch {
      // An expression that no longer parses is looked at again later, as one with no occurrence.
    }
    cron.materializedUntil = times.at(-1) ?? new Date(now.getTime() + RETRY_EMPTY_AFTER_MS);
    return times.map((scheduledAt) => ({
      id: randomUUID(),
      teamId: cron.teamId,
      cronId: cron.id,
      scheduledAt,
      webhookUrl: cron.webhookUrl,
      method: cron.method,
      headers: cron.headers,
      payload: cron.payload,
      retryConfig: cron.retryConfig,
    }));
  });
}
