import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedQuery } from '../../shared/raw-query.js';

/**
 * Folds the destinations' appended counts (pending events per origin, calls per hour) into one row
 * per key, as `event_counts` are folded, for up to `limit` destinations each; drops the hours past
 * a day. Returns the rows folded.
 */
export async function foldDestinationCounts(em: EntityManager, limit: number): Promise<number> {
  const [counts] = await preparedQuery<{ folded: string }>(
    em,
    `with keys as (
       select distinct team_id, origin from destination_counts where xid is not null limit $1
     ), gone as (
       delete from destination_counts c using keys k where c.team_id = k.team_id and c.origin = k.origin
       returning c.team_id, c.origin, c.status, c.n
     ), folded as (
       insert into destination_counts (team_id, origin, status, n)
       select team_id, origin, status, sum(n) from gone group by team_id, origin, status having sum(n) <> 0
     )
     select count(*) as folded from gone`,
    [limit],
  );
  const [hours] = await preparedQuery<{ folded: string }>(
    em,
    `with keys as (
       select distinct team_id, origin from destination_hours where xid is not null limit $1
     ), gone as (
       delete from destination_hours h using keys k where h.team_id = k.team_id and h.origin = k.origin
       returning h.team_id, h.origin, h.hour, h.calls, h.failures
     ), folded as (
       insert into destination_hours (team_id, origin, hour, calls, failures)
       select team_id, origin, hour, sum(calls), sum(failures) from gone
       where hour > clock_timestamp() - interval '25 hours'
       group by team_id, origin, hour
     )
     select count(*) as folded from gone`,
    [limit],
  );
  return Number(counts?.folded ?? 0) + Number(hours?.folded ?? 0);
}
