import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedQuery } from '../../shared/raw-query.js';

/**
 * Folds the counts that writes appended (migration event_counts) into one row per scope and status,
 * for up to `scopes` scopes; returns how many rows it folded. Two folds at once are safe: each sums
 * only the rows its own delete removed.
 */
export async function foldEventCounts(em: EntityManager, scopes: number): Promise<number> {
  const rows = await preparedQuery<{ folded: string }>(
    em,
    `with scopes as (
       select distinct scope from event_counts where xid is not null limit $1
     ), gone as (
       delete from event_counts c where c.scope in (select scope from scopes) returning c.scope, c.status, c.n
     ), folded as (
       insert into event_counts (scope, status, n)
       select scope, status, sum(n) from gone group by scope, status having sum(n) <> 0
     )
     select count(*) as folded from gone`,
    [scopes],
  );
  return Number(rows[0]?.folded ?? 0);
}
