import type { EntityManager } from '@mikro-orm/postgresql';
import type { DestinationLimit } from '@webhook-scheduler/scheduler';
import { preparedQuery } from '../../shared/raw-query.js';
import { type DestinationRow, rateLimitOf } from './destination-row.js';

const PER_MS = { second: 1000, minute: 60_000, hour: 3_600_000 } as const;

/** The teams' own limits at destinations, for the scheduler's shares (read every second). */
export async function destinationLimits(em: EntityManager): Promise<DestinationLimit[]> {
  const rows = await preparedQuery<
    Pick<DestinationRow, 'team_id' | 'origin' | 'max_in_flight' | 'rate_limit_requests' | 'rate_limit_per'>
  >(
    em,
    `select team_id, origin, max_in_flight, rate_limit_requests, rate_limit_per from destinations
     where rate_limit_requests is not null or max_in_flight is not null`,
    [],
  );
  return rows.map((row) => {
    const rate = rateLimitOf(row);
    return {
      teamId: row.team_id,
      origin: row.origin,
      maxInFlight: row.max_in_flight,
      rate: rate && { requests: rate.requests, perMs: PER_MS[rate.per] },
    };
  });
}
