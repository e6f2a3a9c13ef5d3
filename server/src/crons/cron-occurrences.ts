import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { nextOccurrences } from '@webhook-scheduler/scheduler';
import { rawQuery } from '../db/raw-query.js';

/** The fields of a cron that its events copy. */
export interface CronDefinition {
  id: string;
  teamId: string;
  cronExpression: string;
  timezone: string | null;
  webhookUrl: string;
  method: string;
  headers: Record<string, string> | null;
  payload: unknown;
  retryConfig: unknown;
  materializedUntil: Date | null;
}

/** At most this many events are materialized for one cron at a time. */
const MAX_MATERIALIZED = 100;
/** A cron with no computable occurrence (e.g. one that only falls in DST gaps) is looked at again after this. */
const RETRY_EMPTY_AFTER_MS = 60 * 60 * 1000;

/**
 * Inserts the cron's upcoming occurrences as pending events (within `horizonMs`, at least one),
 * never before `now` (no back-fill), and moves `materialized_until`. The caller holds the cron row
 * locked; the unique (cron_id, scheduled_at) index makes a repeated occurrence a no-op.
 */
export async function materializeOccurrences(
  em: EntityManager,
  cron: CronDefinition,
  now: Date,
  horizonMs: number,
): Promise<Date[]> {
  const after = cron.materializedUntil && cron.materializedUntil > now ? cron.materializedUntil : now;
  let times: Date[] = [];
  try {
    times = nextOccurrences(cron.cronExpression, cron.timezone, after, {
      until: new Date(now.getTime() + horizonMs),
      min: 1,
      max: MAX_MATERIALIZED,
    });
  } catch {
    // An expression that no longer parses (e.g. stored before a grammar change) is skipped the same way.
  }
  const last = times.at(-1);
  if (!last) {
    await rawQuery(em, 'update crons set materialized_until = $2 where id = $1', [
      cron.id,
      new Date(now.getTime() + RETRY_EMPTY_AFTER_MS),
    ]);
    return [];
  }
  await rawQuery(
    em,
    `insert into events (id, team_id, cron_id, retry_of, attempt, scheduled_at, status, webhook_url, method,
                         headers, payload, retry_config, created_at, updated_at)
     select o.id, $2, $1, null, 0, o.at, 'pending', $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $8
     from unnest($9::uuid[], $10::timestamptz[]) as o(id, at)
     on conflict (cron_id, scheduled_at) where cron_id is not null and retry_of is null do nothing`,
    [
      cron.id,
      cron.teamId,
      cron.webhookUrl,
      cron.method,
      json(cron.headers),
      json(cron.payload),
      json(cron.retryConfig),
      now,
      times.map(() => randomUUID()),
      times,
    ],
  );
  await rawQuery(em, 'update crons set materialized_until = $2 where id = $1', [cron.id, last]);
  return times;
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
