import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventStatus, HttpMethod, RetryConfig } from '@webhook-scheduler/contract';
import { rawQuery } from '../db/raw-query.js';

/**
 * The event queries of the API's hot paths, as single bound-parameter statements on MikroORM's
 * connection. Measured on this machine: an entity `findOne` managed ~1,700 lookups/s, the same
 * statement here ~12,000/s (bench/README.md).
 */

/** An `events` row as PostgreSQL returns it (timestamps as text, JSON parsed). */
export interface EventRow {
  id: string;
  team_id: string;
  cron_id: string | null;
  retry_of: string | null;
  scheduled_at: string;
  executed_at: string | null;
  status: EventStatus;
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: unknown;
  retry_config: RetryConfig | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_duration: number | null;
  response_error: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, team_id, cron_id, retry_of, scheduled_at, executed_at, status, webhook_url, method, headers,
  payload, retry_config, response_status, response_headers, response_body, response_duration, response_error,
  created_at, updated_at`;

/** What a client defines of an event. */
export interface EventDefinition {
  webhookUrl: string;
  scheduledAt: Date;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: unknown;
  retryConfig: RetryConfig | null;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export async function insertEvent(
  em: EntityManager,
  event: EventDefinition & { id: string; teamId: string; now: Date },
): Promise<EventRow> {
  const [row] = await rawQuery<EventRow>(
    em,
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, headers, payload,
                         retry_config, created_at, updated_at)
     values ($1, $2, 0, $3, 'pending', $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $9)
     returning ${COLUMNS}`,
    [
      event.id,
      event.teamId,
      event.scheduledAt,
      event.webhookUrl,
      event.method,
      json(event.headers),
      json(event.payload),
      json(event.retryConfig),
      event.now,
    ],
  );
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EventRow | undefined> {
  const [row] = await rawQuery<EventRow>(
    em,
    `select ${COLUMNS} from events where id = $1 and team_id = $2${options.forUpdate ? ' for update' : ''}`,
    [id, teamId],
  );
  return row;
}

export async function updateEventDefinition(
  em: EntityManager,
  id: string,
  event: EventDefinition & { now: Date },
): Promise<EventRow> {
  const [row] = await rawQuery<EventRow>(
    em,
    `update events set webhook_url = $2, scheduled_at = $3, method = $4, headers = $5::jsonb, payload = $6::jsonb,
                       retry_config = $7::jsonb, updated_at = $8
     where id = $1 returning ${COLUMNS}`,
    [
      id,
      event.webhookUrl,
      event.scheduledAt,
      event.method,
      json(event.headers),
      json(event.payload),
      json(event.retryConfig),
      event.now,
    ],
  );
  if (!row) throw new Error('update returned no row');
  return row;
}

/** Deletes an original event and its retry attempts. */
export async function deleteEventAndRetries(em: EntityManager, id: string): Promise<void> {
  await rawQuery(em, 'delete from events where id = $1 or retry_of = $1', [id]);
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
    `select ${COLUMNS} from events where ${sql}
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
    `select ${COLUMNS} from events where team_id = $1 and (id = $2 or retry_of = $2)
     order by attempt, scheduled_at, id`,
    [teamId, originalId],
  );
}
