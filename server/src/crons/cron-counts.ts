import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedQuery } from '../shared/raw-query.js';

/**
 * How many crons the team has (only the active or inactive ones, when `isActive` says), from the
 * counts that every insert, delete and (de)activation appends (migration cron_counts).
 */
export async function countCrons(
  em: EntityManager,
  teamId: string,
  isActive: boolean | undefined,
): Promise<number> {
  const [row] = await preparedQuery<{ count: string }>(
    em,
    `select coalesce(sum(n), 0) as count from cron_counts
     where team_id = $1 and ($2::boolean is null or is_active = $2)`,
    [teamId, isActive ?? null],
  );
  return Number(row?.count ?? 0);
}

/** How many active crons the team has. */
export const countActiveCrons = (em: EntityManager, teamId: string): Promise<number> =>
  countCrons(em, teamId, true);

/**
 * Folds the appended counts of up to `teams` teams into one row per state; returns how many rows it
 * folded. Two folds at once are safe: each sums only the rows its own delete removed.
 */
export async function foldCronCounts(em: EntityManager, teams: number): Promise<number> {
  const rows = await preparedQuery<{ folded: string }>(
    em,
    `with due as (
       select distinct team_id from cron_counts where xid is not null limit $1
     ), gone as (
       delete from cron_counts c where c.team_id in (select team_id from due)
       returning c.team_id, c.is_active, c.n
     ), folded as (
       insert into cron_counts (team_id, is_active, n)
       select team_id, is_active, sum(n) from gone group by team_id, is_active having sum(n) <> 0
     )
     select count(*) as folded from gone`,
    [teams],
  );
  return Number(rows[0]?.folded ?? 0);
}
