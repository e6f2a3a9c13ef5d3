import type { EntityManager } from '@mikro-orm/postgresql';
import type { DestinationRateLimit } from '@webhook-scheduler/contract';
import { rawQuery } from '../../shared/raw-query.js';

/** The team's own settings for an origin; `undefined` keeps a field, `null` clears it. */
export interface DestinationSettingsChange {
  rateLimit?: DestinationRateLimit | null | undefined;
  maxInFlight?: number | null | undefined;
  paused?: boolean | undefined;
}

/**
 * Writes the team's settings for `origin` (the row is made if the team never called it). Returns
 * whether this resumed a paused destination whose circuit is closed: its held events may go.
 */
export async function saveDestinationSettings(
  tx: EntityManager,
  teamId: string,
  origin: string,
  change: DestinationSettingsChange,
  now: Date,
): Promise<boolean> {
  const [before] = await rawQuery<{ paused: boolean }>(
    tx,
    'select paused from destinations where team_id = $1 and origin = $2 for update',
    [teamId, origin],
  );
  const [row] = await rawQuery<{ resumed: boolean }>(
    tx,
    `insert into destinations as d (team_id, origin, rate_limit_requests, rate_limit_per, max_in_flight, paused,
                                    created_at, updated_at)
     values ($1, $2, $4, $5, $6, coalesce($7, false), $3, $3)
     on conflict (team_id, origin) do update set
       rate_limit_requests = case when $8 then excluded.rate_limit_requests else d.rate_limit_requests end,
       rate_limit_per = case when $8 then excluded.rate_limit_per else d.rate_limit_per end,
       max_in_flight = case when $9 then excluded.max_in_flight else d.max_in_flight end,
       paused = coalesce($7, d.paused),
       updated_at = excluded.updated_at
     returning $10::boolean and not d.paused and d.circuit = 'closed' as resumed`,
    [
      teamId,
      origin,
      now,
      change.rateLimit?.requests ?? null,
      change.rateLimit?.per ?? null,
      change.maxInFlight ?? null,
      change.paused ?? null,
      change.rateLimit !== undefined,
      change.maxInFlight !== undefined,
      before?.paused === true,
    ],
  );
  return row?.resumed === true;
}
