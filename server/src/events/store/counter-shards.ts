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

const ENDED = `shard <> 0 and not exists (select 1 from pg_stat_activity a where a.pid = shard)`;

function foldStatement(table: string, key: string, sums: string[]): string {
  const returned = sums.map((column) => `t.${column}`).join(', ');
  const summed = sums.map((column) => `sum(${column})`).join(', ');
  const added = sums.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');
  return `with ended as (
      select ctid from ${table} where ${ENDED} limit $1 for update skip locked
    ), moved as (
      delete from ${table} t where t.ctid = any(array(select ctid from ended)) returning t.${key}, ${returned}
    )
    insert into ${table} (${key}, shard, ${sums.join(', ')})
    select ${key}, 0, ${summed} from moved group by ${key}
    on conflict (${key}, shard) do update set ${added}`;
}

/** The rows of owners deleted (migration counter_owners_gone): only theirs are read. */
function dropStatement(table: string, key: string): string {
  return `delete from ${table} where ctid = any(array(
      select c.ctid from counter_owners_gone g join ${table} c on c.${key} = g.id
      limit $1 for update of c skip locked))`;
}

/**
 * A deleted owner is forgotten once nothing of it is left and no transaction that began before its
 * delete is still open (`$2`, read before this statement's snapshot): only such a transaction could
 * still write one of its rows.
 */
const FORGET = `delete from counter_owners_gone g
  where g.gone_at < $2
    and not exists (select 1 from event_totals t where t.scope = g.id)
    and not exists (select 1 from pending_event_counts p where p.team_id = g.id)
    and g.id = any(array(select id from counter_owners_gone limit $1))`;

const STATEMENTS = [
  foldStatement('event_totals', 'scope', ['n']),
  foldStatement('pending_event_counts', 'team_id', ['n', 'bytes']),
  dropStatement('event_totals', 'scope'),
  dropStatement('pending_event_counts', 'team_id'),
];

/**
 * Folds up to `limit` rows of ended sessions per counter table, and drops as many of deleted
 * owners; returns the most rows one statement touched (the folding job runs it again while full).
 */
export async function foldCounterShards(em: EntityManager, limit = 10_000): Promise<number> {
  let most = 0;
  for (const statement of STATEMENTS) {
    most = Math.max(most, (await rawQuery(em, `${statement} returning 1`, [limit])).length);
  }
  const [oldest] = await rawQuery<{ at: Date }>(
    em,
    `select coalesce(min(xact_start), 'infinity') as at from pg_stat_activity where pid <> pg_backend_pid()`,
  );
  await rawQuery(em, FORGET, [limit, oldest?.at]);
  return most;
}
