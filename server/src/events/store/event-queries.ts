import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventStatus } from '@webhook-scheduler/contract';
import { rawQuery } from '../../db/raw-query.js';
import { type EventRow, eventColumns } from './event-row.js';

/**
 * The API's reads of events, as single bound-parameter statements on MikroORM's connection.
 * Measured on this machine: an entity `findOne` managed ~1,700 lookups/s, the same statement here
 * ~12,000/s (bench/README.md).
 */

export async function findEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EventRow | undefined> {
  const [row] = await rawQuery<EventRow>(
    em,
    `select ${eventColumns()} from events where id = $1 and team_id = $2${options.forUpdate ? ' for update' : ''}`,
    [id, teamId],
  );
  return row;
}

export interface EventFilter {
  teamId: string;
  status?: EventStatus | undefined;
  cronId?: string | undefined;
}

function where(filter: EventFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.teamId];
  let sql = 'team_id = $1';
  if (filter.status) sql += ` and status = $${params.push(filter.status)}`;
  if (filter.cronId) sql += ` and cron_id = $${params.push(filter.cronId)}`;
  return { sql, params };
}

/** The exact number of events matching `filter`. */
export async function countEvents(em: EntityManager, filter: EventFilter): Promise<number> {
  if (!filter.status) return totalOf(em, filter.teamId, filter.cronId);
  const { sql, params } = where(filter);
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from events where ${sql}`,
    params,
  );
  return Number(row?.count ?? 0);
}

/** Kept by triggers on every insert and delete (migration event_totals): no rows are counted. */
async function totalOf(em: EntityManager, teamId: string, cronId: string | undefined): Promise<number> {
  const [row] = cronId
    ? await rawQuery<{ total: string | null }>(
        em,
        `select sum(n) as total from event_totals
         where scope = $2 and exists (select 1 from crons where id = $2 and team_id = $1)`,
        [teamId, cronId],
      )
    : await rawQuery<{ total: string | null }>(
        em,
        'select sum(n) as total from event_totals where scope = $1',
        [teamId],
      );
  return Number(row?.total ?? 0);
}

/** A page of events, newest first (created_at, then id, descending). */
export async function pageOfEvents(
  em: EntityManager,
  filter: EventFilter,
  { page, limit }: { page: number; limit: number },
): Promise<EventRow[]> {
  const { sql, params } = where(filter);
  return rawQuery<EventRow>(
    em,
    `select ${eventColumns()} from events where ${sql}
     order by created_at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, limit, page * limit],
  );
}

/** An original event and its retry attempts, first attempt first. */
export async function findAttempts(
  em: EntityManager,
  teamId: string,
  originalId: string,
): Promise<EventRow[]> {
  return rawQuery<EventRow>(
    em,
    `select ${eventColumns()} from events where team_id = $1 and (id = $2 or retry_of = $2)
     order by attempt, scheduled_at, id`,
    [teamId, originalId],
  );
}
