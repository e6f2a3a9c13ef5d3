import type { EntityManager } from '@mikro-orm/postgresql';
import type { DestinationSort } from '@webhook-scheduler/contract';
import { rawQuery } from '../../shared/raw-query.js';
import { DESTINATION_COLUMNS, type DestinationRow } from './destination-row.js';

/**
 * A destination as listed: its row (or defaults for one only waited for) and its figures.
 * `pending` counts the calls in flight too (they are pending in their rows until recorded).
 */
export interface DestinationListing extends DestinationRow {
  pending: string | number;
  calls_24h: string | number;
  failures_24h: string | number;
}

/**
 * The team's destinations: those it has settings or calls for, and those it has events waiting for.
 * `origins` narrows to some (one for a get). Figures come from folded counts and hourly rollups: no
 * event row is counted.
 */
function listingStatement(where: string): string {
  return `with origins as (
      select origin from destinations where team_id = $1 ${where}
      union
      select origin from destination_counts where team_id = $1 ${where}
      group by origin having sum(n) filter (where status = 'pending') > 0
    )
    select coalesce(d.team_id, $1) as team_id, o.origin, d.rate_limit_requests, d.rate_limit_per, d.max_in_flight,
           coalesce(d.paused, false) as paused, coalesce(d.circuit, 'closed') as circuit,
           coalesce(d.consecutive_failures, 0) as consecutive_failures, d.open_until, coalesce(d.cooldown_ms, 0) as cooldown_ms,
           d.probe_event_id, d.retry_after_until, d.last_call_at, d.last_status, d.last_response_status,
           coalesce((select sum(n) from destination_counts c
                     where c.team_id = $1 and c.origin = o.origin and c.status = 'pending'), 0) as pending,
           coalesce((select sum(h.calls) from destination_hours h where h.team_id = $1 and h.origin = o.origin
                       and h.hour > now() - interval '24 hours'), 0) as calls_24h,
           coalesce((select sum(h.failures) from destination_hours h where h.team_id = $1 and h.origin = o.origin
                       and h.hour > now() - interval '24 hours'), 0) as failures_24h
    from origins o
    left join destinations d on d.team_id = $1 and d.origin = o.origin`;
}

const ORDERS: Record<DestinationSort, string> = {
  '-last_call_at': 'last_call_at desc nulls last, origin',
  origin: 'origin',
};

/** A page of the team's destinations, and how many there are. */
export async function listDestinations(
  em: EntityManager,
  teamId: string,
  { page, limit, sort }: { page: number; limit: number; sort: DestinationSort },
): Promise<{ rows: DestinationListing[]; total: number }> {
  const rows = await rawQuery<DestinationListing & { total: string }>(
    em,
    `select *, count(*) over () as total from (${listingStatement('')}) listed
     order by ${ORDERS[sort]} limit $2 offset $3`,
    [teamId, limit, page * limit],
  );
  if (rows.length > 0) return { rows, total: Number(rows[0]?.total ?? 0) };
  const [counted] = await rawQuery<{ total: string }>(
    em,
    `select count(*) as total from (${listingStatement('')}) listed`,
    [teamId],
  );
  return { rows: [], total: Number(counted?.total ?? 0) };
}

/** One destination of the team, or undefined when the team never used the origin. */
export async function findDestination(
  em: EntityManager,
  teamId: string,
  origin: string,
): Promise<DestinationListing | undefined> {
  const [row] = await rawQuery<DestinationListing>(em, listingStatement('and origin = $2'), [teamId, origin]);
  return row;
}

/** The team's row for `origin` as stored, locked for the rest of the transaction. */
export async function lockDestination(
  em: EntityManager,
  teamId: string,
  origin: string,
): Promise<DestinationRow | undefined> {
  const [row] = await rawQuery<DestinationRow>(
    em,
    `select ${DESTINATION_COLUMNS} from destinations d where d.team_id = $1 and d.origin = $2 for update`,
    [teamId, origin],
  );
  return row;
}
