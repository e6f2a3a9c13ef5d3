import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';

/** Retention's statement on events: finished retry chains past their cutoff go, whole. */

export interface ExpiryBatch {
  teamId: string;
  /** Chains whose last attempt ended before this go; one that ended at it or later stays. */
  cutoff: Date;
  /** At most this many chains (an original and its retries) per statement. */
  chains: number;
}

/**
 * Deletes up to `chains` of the team's finished chains whose last attempt ended before `cutoff`,
 * oldest first; returns the rows deleted (originals and retries) and the chains they formed.
 *
 * An original's `updated_at` is when its chain settled: it stays `processing` while retries are
 * planned and takes its final status with the last attempt's outcome. A chain with any attempt
 * still pending or in flight, or one that ended at or after the cutoff, is left whole. Rows another
 * transaction holds (an API delete of the same event) are skipped, not waited for; the retries go
 * with the originals actually deleted. The locked rows are deleted by their tuple ids, which a lock
 * keeps stable (half the cost of a second lookup by primary key). The delete trigger keeps
 * `pagination.total` exact; both deletes are one statement, so it sees them together.
 */
export async function deleteExpiredChains(
  em: EntityManager,
  batch: ExpiryBatch,
): Promise<{ chains: number; rows: number }> {
  const [row] = await rawQuery<{ chains: number; rows: number }>(
    em,
    `with chains as (
       select o.ctid as tid from events o
       where o.team_id = $1 and o.retry_of is null and o.status in ('success', 'failed') and o.updated_at < $2
         and not exists (
           select 1 from events r
           where r.retry_of = o.id and (r.status not in ('success', 'failed') or r.updated_at >= $2))
       order by o.updated_at
       limit $3
       for update of o skip locked
     ), originals as (
       delete from events o where o.ctid = any(array(select tid from chains)) returning o.id
     ), retries as (
       delete from events r using originals o where r.retry_of = o.id returning r.id
     )
     select (select count(*) from originals)::int as chains,
            (select count(*) from originals)::int + (select count(*) from retries)::int as rows`,
    [batch.teamId, batch.cutoff, batch.chains],
  );
  return { chains: row?.chains ?? 0, rows: row?.rows ?? 0 };
}
