// The first page of an event list as the API reads it, whole, for the read-counting tests.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSort } from '@webhook-scheduler/contract';
import { type EventFilter, pageOfEventsInChunks } from '../src/events/store/event-queries.js';
import type { EventRow } from '../src/events/store/event-row.js';

/** The first page of `limit` events of `filter` in `sort` order, read in `tx`. */
export async function firstPageOf(
  tx: EntityManager,
  filter: EventFilter,
  sort: EventSort,
  limit: number,
): Promise<EventRow[]> {
  const page: EventRow[] = [];
  for await (const chunk of pageOfEventsInChunks(tx, filter, { page: 0, limit, sort })) page.push(...chunk);
  return page;
}
