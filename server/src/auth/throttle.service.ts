import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, rawQuery } from '../shared/raw-query.js';
import { TooManyRequestsError } from '../errors.js';
import { type ThrottleLimit, retryAfterSeconds, waitMessage } from './throttle.rules.js';

// Counters whose window started this long ago are dropped by the next hit on any key.
const KEEP_MS = 24 * 3600_000;

/**
 * Counts one hit on `key` in its fixed window, in one statement, so concurrent hits from any number
 * of processes each see their own count; throws TooManyRequestsError past the limit.
 */
export async function hitThrottle(
  em: EntityManager,
  key: string,
  limit: ThrottleLimit,
  now: Date,
  refusal: string,
): Promise<void> {
  const [row] = await rawQuery<{ hits: number; window_started_at: string | Date }>(
    em,
    `with swept as (delete from auth_throttle where window_started_at < $4 and key <> $1)
     insert into auth_throttle (key, window_started_at, hits) values ($1, $2, 1)
     on conflict (key) do update set
       hits = case when auth_throttle.window_started_at <= $3 then 1 else auth_throttle.hits + 1 end,
       window_started_at = case when auth_throttle.window_started_at <= $3 then $2
                                else auth_throttle.window_started_at end
     returning hits, window_started_at`,
    [key, now, new Date(now.getTime() - limit.windowMs), new Date(now.getTime() - KEEP_MS)],
  );
  if (!row) return;
  const wait = retryAfterSeconds(
    { hits: row.hits, windowStartedAt: asDate(row.window_started_at) },
    limit,
    now,
  );
  if (wait !== undefined)
    throw new TooManyRequestsError(`${refusal} Try again in ${waitMessage(wait)}.`, wait);
}

/** Forgets the hits of `key` (a successful sign-in clears its email's count). */
export async function clearThrottle(em: EntityManager, key: string): Promise<void> {
  await rawQuery(em, 'delete from auth_throttle where key = $1', [key]);
}
