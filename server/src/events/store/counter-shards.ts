import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';

/**
 * The exact counters (`event_totals` per team and cron, `pending_event_counts` per team) keep one
 * row per database session that wrote them (`shard` = its `pg_backend_pid()`, migration
 * exact_quotas), so two transactions never wait for one counter row. Here the rows of sessions that
 * ended are folded into shard 0, keeping their sum, and the rows of deleted teams and crons go.
 * Rows another transaction holds are skipped, never waited for; only one process folds at a time
 * (the caller holds the folding job's lock), so shard 0 has one writer.
 */

/**
 * The shards of sessions that ended, found through the table's index of non-zero shards (migration
 * counter_live_shards): one probe per distinct shard. The live sessions' rows, one per counter each
 * of them wrote (tens of thousands at 20,000 crons), are not read, and most runs find none ended.
 */
function endedShards(table: string): string {
  return `with recursive shards (shard) as (
      select min(shard) from ${table} where shard <> 0
      union all
      select (select min(c.shard) from ${table} c where c.shard <> 0 and c.shard > s.shard)
      from shards s where s.shard is not null
    )
    select coalesce(array_agg(shard), '{}') as shards from shards
    where shard is not null and not exists (select 1 from pg_stat_activity a where a.pid = shard)`;
}

/**
 * Folds the rows of the ended shards `$2` into shard 0, up to `$1` of them. `shard <> 0` is repeated
 * as the partial index's condition, so that the index serves the search.
 */
function foldStatement(table: string, key: string, sums: string[]): string {
  const returned = sums.map((column) => `t.${column}`).join(', ');
  const summed = sums.map((column) => `sum(${column})`).join(', ');
  const added = sums.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');
  return `with ended as (
      select ctid from ${table} where shard <> 0 and shard = any($2::int[]) limit $1 for update skip locked
    ), moved as (
      delete from ${table} t where t.ctid = any(array(select ctid from ended)) returning t.${key}, ${returned}
    )
    insert into ${table} (${key}, shard, ${sums.join(', ')})
    select ${key}, 0, ${summed} from moved group by ${key}
    on conflict (${key}, shard) do update set ${added}`;
}

/**
 * The rows of owners deleted (migration counter_owners_gone): only theirs are read, each owner's
 * through the table's key. As a join, with the few owners gone counted at the planner's default
 * (1,570), it hashed them and read the whole table whenever one was left (20,000 rows: 501 pages
 * against 3); the lateral subquery's limit keeps it a probe per owner.
 */
function dropStatement(table: string, key: string): string {
  return `delete from ${table} where ctid = any(array(
      select c.ctid from counter_owners_gone g
      cross join lateral (
        select ctid from ${table} c where c.${key} = g.id limit $1 for update skip locked
      ) c
      limit $1))`;
}

/**
 * A deleted owner is forgotten once nothing of it is left and no transaction that began before its
 * delete is still open in this database (`$2`, read before this statement's snapshot): only such a
 * transaction could still write one of its rows. Another database's, on a shared server, cannot.
 */
const FORGET = `delete from counter_owners_gone g
  where g.gone_at < $2
    and not exists (select 1 from event_totals t where t.scope = g.id)
    and not exists (select 1 from pending_event_counts p where p.team_id = g.id)
    and g.id = any(array(select id from counter_owners_gone limit $1))`;

const COUNTERS = [
  { table: 'event_totals', key: 'scope', sums: ['n'] },
  { table: 'pending_event_counts', key: 'team_id', sums: ['n', 'bytes'] },
];

/**
 * Folds up to `limit` rows of ended sessions per counter table, and drops as many of deleted
 * owners; returns the most rows one statement touched (the folding job runs it again while full).
 */
export async function foldCounterShards(em: EntityManager, limit = 10_000): Promise<number> {
  let most = 0;
  for (const { table, key, sums } of COUNTERS) {
    const [ended] = await rawQuery<{ shards: number[] }>(em, endedShards(table));
    if (ended?.shards.length)
      most = Math.max(
        most,
        (await rawQuery(em, `${foldStatement(table, key, sums)} returning 1`, [limit, ended.shards])).length,
      );
    most = Math.max(most, (await rawQuery(em, `${dropStatement(table, key)} returning 1`, [limit])).length);
  }
  const [oldest] = await rawQuery<{ at: Date }>(
    em,
    `select coalesce(min(xact_start), 'infinity') as at from pg_stat_activity
     where pid <> pg_backend_pid() and datname = current_database()`,
  );
  await rawQuery(em, FORGET, [limit, oldest?.at]);
  return most;
}
