import type { EventStatus } from '@webhook-scheduler/contract';
import { REQUEST_COLUMN_NAMES, type RequestColumns } from '../../shared/request-columns.js';

/**
 * An `events` row as the API shows it, as PostgreSQL returns it (timestamps as text, JSON parsed).
 * This folder owns the `events` table and its `event_queue`: every statement on them lives here, with
 * this one column list.
 */
export interface EventRow extends RequestColumns {
  id: string;
  team_id: string;
  cron_id: string | null;
  retry_of: string | null;
  replay_of: string | null;
  scheduled_at: string;
  executed_at: string | null;
  status: EventStatus;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_duration: number | null;
  response_error: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = [
  'id',
  'team_id',
  'cron_id',
  'retry_of',
  'replay_of',
  'scheduled_at',
  'executed_at',
  'status',
  ...REQUEST_COLUMN_NAMES,
  'response_status',
  'response_headers',
  'response_body',
  'response_duration',
  'response_error',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EventRow)[];

/** A delivery in flight is `pending` in `events` and leased in `event_queue`: the API shows `processing`. */
export const inFlightIn = (table: string) =>
  `exists (select 1 from event_queue q where q.event_id = ${table}.id and q.lease_token is not null)`;

/**
 * The status the API shows of an event in `table` (a name or an alias). A scalar subquery, so each
 * row shown costs one primary-key probe: as an EXISTS, PostgreSQL may hash every leased queue row
 * for a page of 100 instead, and reads the whole queue when its statistics are stale (a list of
 * 100 from 100,000 events took 4× longer right after they were inserted).
 */
export const shownStatus = (table: string) =>
  `case when ${table}.status = 'pending'
     and (select q.lease_token from event_queue q where q.event_id = ${table}.id) is not null
   then 'processing' else ${table}.status end`;

/**
 * The select list of an {@link EventRow} from `table` (a name or an alias), its status as shown:
 * `shown` when the statement selects only events shown with it, so none is looked up in the queue.
 */
export function eventColumns(table = 'events', shown?: EventStatus): string {
  const status = shown ? `'${shown}'::text` : shownStatus(table);
  return COLUMNS.map((column) => (column === 'status' ? `${status} as status` : `${table}.${column}`)).join(
    ', ',
  );
}
