import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';
import { latenessBucketSql } from '../../lateness/lateness.rules.js';

/** The one owner of `delivery_minutes` (migration delivery_minutes): appends, folds, reads. */

/**
 * An INSERT for a data-modifying CTE of the outcome statement: one row per team and minute of the
 * outcomes `source` names, appended and never updated. `source` is a CTE of the recorded attempts
 * with `id, team_id, status, executed_at, scheduled_at, original_id, original_status` as the
 * outcome statement wrote them. A call counts in the minute it started; an attempt failed without
 * a call (missed during downtime) counts as failed in the minute it was recorded, without lateness.
 */
export function appendDeliveryMinutes(source: string): string {
  const lateMs = 'extract(epoch from (executed_at - scheduled_at)) * 1000';
  return `insert into delivery_minutes
      (team_id, minute, succeeded, retrying, failed, lateness_buckets, lateness_counts)
    select team_id, minute, sum(succeeded), sum(retrying), sum(failed),
           coalesce(array_agg(bucket order by bucket) filter (where bucket is not null), '{}'),
           coalesce(array_agg(n order by bucket) filter (where bucket is not null), '{}')
    from (
      select team_id, minute, bucket, count(*)::int as n,
             (count(*) filter (where status = 'success'))::int as succeeded,
             (count(*) filter (where retried))::int as retrying,
             (count(*) filter (where status <> 'success' and not retried))::int as failed
      from (
        select team_id, status,
               date_trunc('minute', coalesce(executed_at, clock_timestamp())) as minute,
               ${latenessBucketSql(lateMs)} as bucket,
               -- An original waiting for its retries stays processing; a retry with more to come
               -- settles nothing.
               (status = 'processing' or (status = 'failed' and id <> original_id and original_status is null))
                 as retried
        from ${source}
      ) as calls
      group by team_id, minute, bucket
    ) as buckets
    group by team_id, minute`;
}

/** Minutes kept: the longest window the Overview shows is 7 days, and a day more for its edge. */
export const MINUTES_KEPT_MS = 8 * 86_400_000;

/**
 * Folds the rows appended for up to `keys` (team, minute) keys into one row each; returns how many
 * rows it folded. Two folds at once are safe: each sums only the rows its own delete removed.
 */
export async function foldDeliveryMinutes(em: EntityManager, keys: number): Promise<number> {
  const rows = await rawQuery<{ folded: string }>(
    em,
    `with keys as (
       select distinct team_id, minute from delivery_minutes where not folded limit $1
     ), gone as (
       delete from delivery_minutes d using keys k
       where d.team_id = k.team_id and d.minute = k.minute
       returning d.team_id, d.minute, d.succeeded, d.retrying, d.failed, d.lateness_buckets, d.lateness_counts
     ), histogram as (
       select team_id, minute, h.bucket, sum(h.n)::int as n
       from gone, unnest(lateness_buckets, lateness_counts) as h(bucket, n)
       group by team_id, minute, h.bucket
     ), folded as (
       insert into delivery_minutes
         (team_id, minute, succeeded, retrying, failed, lateness_buckets, lateness_counts, folded)
       select g.team_id, g.minute, sum(g.succeeded), sum(g.retrying), sum(g.failed),
              coalesce((select array_agg(h.bucket order by h.bucket) from histogram h
                        where h.team_id = g.team_id and h.minute = g.minute), '{}'),
              coalesce((select array_agg(h.n order by h.bucket) from histogram h
                        where h.team_id = g.team_id and h.minute = g.minute), '{}'),
              true
       from gone g group by g.team_id, g.minute
     )
     select count(*) as folded from gone`,
    [keys],
  );
  return Number(rows[0]?.folded ?? 0);
}

/** Deletes up to `limit` rows of minutes before `cutoff`; returns how many. */
export async function dropMinutesBefore(em: EntityManager, cutoff: Date, limit: number): Promise<number> {
  const rows = await rawQuery<{ dropped: string }>(
    em,
    `with gone as (
       delete from delivery_minutes
       where ctid = any(array(select ctid from delivery_minutes where minute < $1 limit $2))
       returning 1
     )
     select count(*) as dropped from gone`,
    [cutoff, limit],
  );
  return Number(rows[0]?.dropped ?? 0);
}

/** One bin of a team's deliveries: its calls by outcome and their lateness histogram. */
export interface DeliveryBinRow {
  bin: Date;
  succeeded: number;
  retrying: number;
  failed: number;
  histogram: Map<number, number>;
}

/**
 * The team's minutes in [from, to) summed into bins of `binSeconds` aligned on the Unix epoch;
 * bins without a call are left out. Reads at most the window's minutes (one folded row each, plus
 * the rows appended since the last fold) through (team_id, minute).
 */
export async function deliveryBins(
  em: EntityManager,
  teamId: string,
  window: { from: Date; to: Date; binSeconds: number },
): Promise<DeliveryBinRow[]> {
  const rows = await rawQuery<{
    bin: Date;
    succeeded: number;
    retrying: number;
    failed: number;
    histogram: Record<string, number> | null;
  }>(
    em,
    `with minutes as (
       select date_bin($4 * interval '1 second', minute, timestamptz '1970-01-01 00:00:00+00') as bin, *
       from delivery_minutes where team_id = $1 and minute >= $2 and minute < $3
     ), totals as (
       select bin, sum(succeeded)::int as succeeded, sum(retrying)::int as retrying, sum(failed)::int as failed
       from minutes group by bin
     ), histograms as (
       select bin, jsonb_object_agg(bucket, n) as histogram from (
         select bin, h.bucket, sum(h.n)::int as n
         from minutes, unnest(lateness_buckets, lateness_counts) as h(bucket, n)
         group by bin, h.bucket
       ) as buckets group by bin
     )
     select t.bin, t.succeeded, t.retrying, t.failed, h.histogram
     from totals t left join histograms h using (bin) order by t.bin`,
    [teamId, window.from, window.to, window.binSeconds],
  );
  return rows.map((row) => ({
    bin: new Date(row.bin),
    succeeded: row.succeeded,
    retrying: row.retrying,
    failed: row.failed,
    histogram: new Map(Object.entries(row.histogram ?? {}).map(([bucket, n]) => [Number(bucket), n])),
  }));
}
