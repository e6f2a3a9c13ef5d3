import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSort, EventStatus } from '@webhook-scheduler/contract';
import { preparedQuery, rawQuery } from '../../shared/raw-query.js';
import { type EventRow, inFlightIn, eventColumns } from './event-row.js';

/**
 * The API's reads of events, as single bound-parameter statements on MikroORM's connection.
 * Measured on this machine: an entity `findOne` managed ~1,700 lookups/s, the same statement here
 * ~12,000/s (bench/README.md).
 */

/**
 * An event of the team. `lock: 'update'` holds it for a change (its queue row first, then its row:
 * the order an outcome takes them in; a claim skips an event held here and one in progress is
 * waited for, so the status read under both locks is the truth). `lock: 'key share'` only keeps
 * it from being deleted while the caller's transaction inserts an event referring to it.
 */
export async function findEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  { lock }: { lock?: 'update' | 'key share' } = {},
): Promise<EventRow | undefined> {
  const select = `select ${eventColumns()} from events where id = $1 and team_id = $2`;
  if (!lock) return (await preparedQuery<EventRow>(em, select, [id, teamId]))[0];
  if (lock === 'key share') return (await rawQuery<EventRow>(em, `${select} for key share`, [id, teamId]))[0];
  await rawQuery(
    em,
    `select 1 from event_queue q join events e on e.id = q.event_id
     where q.event_id = $1 and e.team_id = $2 for update of q`,
    [id, teamId],
  );
  return (await rawQuery<EventRow>(em, `${select} for update`, [id, teamId]))[0];
}

export interface EventFilter {
  teamId: string;
  status?: EventStatus | undefined;
  cronId?: string | undefined;
  /** Inclusive. */
  scheduledAfter?: Date | undefined;
  /** Exclusive. */
  scheduledBefore?: Date | undefined;
  /** A substring of `webhook_url`, ignoring case. */
  urlContains?: string | undefined;
  /** The origin the calls go to, as `webhookOrigin` writes it (stored in `destination`). */
  destination?: string | undefined;
  /** Only original events, not their retry attempts. */
  originals?: boolean | undefined;
}

/** Events shown with `status` (a delivery in flight is `pending` in its row). */
function statusIs(status: EventStatus, params: unknown[]): string {
  if (status === 'pending') return `status = 'pending' and not ${inFlightIn('events')}`;
  if (status === 'processing')
    return `(status = 'processing' or (status = 'pending' and ${inFlightIn('events')}))`;
  return `status = $${params.push(status)}`;
}

/**
 * Whether the cron `cron` (a parameter) is the team's (`$1`): every event of a cron is its team's,
 * so its first one tells, read once per statement.
 */
const cronOfTeam = (cron: string) =>
  `(select o.team_id from events o where o.cron_id = ${cron} limit 1) = $1`;

/**
 * A cron's events are read by the cron alone, its team checked once: with the team as a condition of
 * each row, the planner intersected the cron's index with the team's whole (bench/scale: 43,205
 * entries read for a cron's 337 events, 17 ms).
 */
function where(filter: EventFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.teamId];
  let sql = 'team_id = $1';
  if (filter.cronId) {
    const cron = `$${params.push(filter.cronId)}`;
    sql = `cron_id = ${cron} and ${cronOfTeam(cron)}`;
  }
  if (filter.status) sql += ` and ${statusIs(filter.status, params)}`;
  if (filter.scheduledAfter) sql += ` and scheduled_at >= $${params.push(filter.scheduledAfter)}`;
  if (filter.scheduledBefore) sql += ` and scheduled_at < $${params.push(filter.scheduledBefore)}`;
  // strpos, not LIKE: the text's % and _ are plain characters.
  if (filter.urlContains)
    sql += ` and strpos(lower(webhook_url), lower($${params.push(filter.urlContains)})) > 0`;
  if (filter.destination) sql += ` and destination = $${params.push(filter.destination)}`;
  if (filter.originals) sql += ' and retry_of is null';
  return { sql, params };
}

/** The exact number of events matching `filter`. */
export async function countEvents(em: EntityManager, filter: EventFilter): Promise<number> {
  const byRows =
    filter.scheduledAfter !== undefined ||
    filter.scheduledBefore !== undefined ||
    filter.urlContains !== undefined ||
    filter.destination !== undefined ||
    filter.originals === true;
  if (!byRows) return countedEvents(em, filter);
  // A time range is counted over the (team_id[, status], scheduled_at) indexes, a URL substring over
  // the rows the other filters select: their rows are read.
  const { sql, params } = where(filter);
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from events where ${sql}`,
    params,
  );
  return Number(row?.count ?? 0);
}

/**
 * Calls in flight of the team (or of one of its crons): `pending` in their rows, shown `processing`.
 * At most the calls in flight are read.
 */
const inFlightOf = (cron: boolean) =>
  cron
    ? `(select count(*) from event_queue q join events e on e.id = q.event_id
        where q.team_id = $1 and q.lease_token is not null and e.cron_id = $2)`
    : '(select count(*) from event_queue q where q.team_id = $1 and q.lease_token is not null)';

/**
 * From the counts that triggers append on every write (migration event_counts), never by counting
 * rows: a scope's few rows summed, and for `pending` and `processing` the calls in flight moved
 * from one to the other, read in the same statement.
 */
async function countedEvents(em: EntityManager, filter: EventFilter): Promise<number> {
  const cron = filter.cronId !== undefined;
  const scope = cron ? '$2' : '$1';
  const params: unknown[] = cron ? [filter.teamId, filter.cronId] : [filter.teamId];
  const stored = (status: string) =>
    `(select coalesce(sum(n), 0) from event_counts where scope = ${scope} and status = ${status})`;
  let total: string;
  if (!filter.status) total = `(select coalesce(sum(n), 0) from event_counts where scope = ${scope})`;
  else if (filter.status === 'pending') total = `${stored("'pending'")} - ${inFlightOf(cron)}`;
  else if (filter.status === 'processing') total = `${stored("'processing'")} + ${inFlightOf(cron)}`;
  else total = stored(`$${params.push(filter.status)}`);
  // Another team's cron counts nothing.
  const owned = cron ? ` where ${cronOfTeam('$2')}` : '';
  const [row] = await preparedQuery<{ total: string | null }>(em, `select ${total} as total${owned}`, params);
  return Number(row?.total ?? 0);
}

/**
 * Up to `limit` events matching `filter`, in scheduled order, each held (`for key share`) until the
 * caller's transaction ends, so none is deleted while events referring to it are inserted.
 */
export async function findEventsHeld(
  tx: EntityManager,
  filter: EventFilter,
  limit: number,
): Promise<EventRow[]> {
  const { sql, params } = where(filter);
  return rawQuery<EventRow>(
    tx,
    `select ${eventColumns('events', filter.status)} from events where ${sql}
     order by scheduled_at, id limit $${params.length + 1} for key share`,
    [...params, limit],
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

/**
 * The team's own pending events (created, batched, replayed or run by hand, retries included; not
 * a cron's schedule, not alerts) and their bytes, exact: kept by triggers on every insert, delete
 * and change (migrations team_limits and exact_quotas), so no rows are counted.
 */
export async function pendingUsage(
  em: EntityManager,
  teamId: string,
): Promise<{ events: number; bytes: number }> {
  const [row] = await rawQuery<{ events: string | null; bytes: string | null }>(
    em,
    'select sum(n) as events, sum(bytes) as bytes from pending_event_counts where team_id = $1',
    [teamId],
  );
  return { events: Number(row?.events ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** The bytes a pending event's request holds, and whether the team's pending quotas count them. */
export async function pendingBytesOf(
  em: EntityManager,
  id: string,
): Promise<{ bytes: number; counted: boolean }> {
  const [row] = await rawQuery<{ bytes: number; counted: boolean }>(
    em,
    `select request_bytes as bytes, (status = 'pending' and (cron_id is null or triggered) and not alert) as counted
     from events where id = $1`,
    [id],
  );
  return { bytes: row?.bytes ?? 0, counted: row?.counted ?? false };
}

/**
 * Where a team's pending events not in flight begin in scheduled order: each has its queue row
 * (migration event_queue), due at the event's time. The team's index of `events` by status and time
 * keeps the entries of the events sent before it until a vacuum of `events` removes them; a page
 * from the start read them all (bench/scale: 651 index pages for a page of 50, 6.4 ms; from here
 * 0.55 ms).
 */
const PENDING_FROM = `scheduled_at >= (select min(q.scheduled_at) from event_queue q where q.team_id = $1 and q.lease_token is null)`;

/** Rows read at once when a page is streamed: a page of up to 100 is one statement, as before. */
export const STREAM_CHUNK = 100;

/** Each order of the list, with the id as the tie-break in the same direction. */
const ORDERS: Record<EventSort, { column: 'created_at' | 'scheduled_at'; descending: boolean }> = {
  created_at: { column: 'created_at', descending: true },
  '-created_at': { column: 'created_at', descending: true },
  scheduled_at: { column: 'scheduled_at', descending: false },
  '-scheduled_at': { column: 'scheduled_at', descending: true },
};

/**
 * A page of events in `sort` order (newest created first by default), read `STREAM_CHUNK` rows at a
 * time: the first chunk at the page's offset, each next one after the last row read (keyset), so a
 * page of 1,000 large payloads never sits in memory whole. Reads on the given (forked) entity manager.
 *
 * Each chunk picks its ids first, from the columns an index holds, then reads their rows. Asked for
 * the whole rows at once, the planner may walk the team's index by the sort column and filter on the
 * status, reading every row of another status ahead of the page: bench/scale, `status=success` of a
 * team whose newest events were pending, 25,709 rows read for 50 (26 ms), or not, as the statistics
 * of the moment had it. The ids alone are read from the one index that holds them all in order,
 * (team_id, status, column), whatever the statistics; the join costs ~0.4 ms a page of 50.
 *
 * A cron's events are read in one step: its index holds neither the team nor the status, so the
 * rows are visited to filter them whichever way, and reading the ids first looked each one up again
 * (bench/scale: 250–280 buffers for a page of 50 against 43–48, 6–8 ms against ~3).
 */
export async function* pageOfEventsInChunks(
  em: EntityManager,
  filter: EventFilter,
  { page, limit, sort = 'created_at' }: { page: number; limit: number; sort?: EventSort },
): AsyncGenerator<EventRow[]> {
  const filtered = where(filter);
  const { column, descending } = ORDERS[sort];
  const fromTheQueue = filter.status === 'pending' && column === 'scheduled_at' && !descending;
  const { sql, params } = fromTheQueue
    ? { ...filtered, sql: `${filtered.sql} and ${PENDING_FROM}` }
    : filtered;
  const direction = descending ? 'desc' : 'asc';
  const orderBy = (table: string) => `order by ${table}.${column} ${direction}, ${table}.id ${direction}`;
  const columns = eventColumns('events', filter.status);
  const chunk = (condition: string, bounds: string) =>
    filter.cronId === undefined
      ? `select ${columns} from events
     join (select id from events where ${condition} ${orderBy('events')} ${bounds}) as page on page.id = events.id
     ${orderBy('events')}`
      : `select ${columns} from events where ${condition} ${orderBy('events')} ${bounds}`;
  const after = descending ? '<' : '>';
  let read = 0;
  let last: EventRow | undefined;
  while (read < limit) {
    const size = Math.min(STREAM_CHUNK, limit - read);
    const n = params.length;
    const rows = last
      ? await rawQuery<EventRow>(
          em,
          chunk(
            `${sql} and (${column}, id) ${after} ($${n + 1}::timestamptz, $${n + 2}::uuid)`,
            `limit $${n + 3}`,
          ),
          [...params, last[column], last.id, size],
        )
      : await rawQuery<EventRow>(em, chunk(sql, `limit $${n + 1} offset $${n + 2}`), [
          ...params,
          size,
          page * limit,
        ]);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    read += rows.length;
    last = rows[rows.length - 1];
  }
}
