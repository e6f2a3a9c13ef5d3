import type { Event } from '@webhook-scheduler/sdk';

/** A row of the events list: an event on its own, or a retry attempt under its original. */
export type EventRow =
  | { kind: 'event'; event: Event }
  | {
      kind: 'retry';
      event: Event;
      /** Which retry it is (1 for the first), or undefined when the page cannot tell. */
      number: number | undefined;
    };

const bySchedule = (a: Event, b: Event) =>
  a.scheduled_at.localeCompare(b.scheduled_at) || a.created_at.localeCompare(b.created_at);

/**
 * The page's events with each retry attempt moved under its original, attempts in the order they
 * were scheduled; everything else keeps the list's order, whatever it is sorted by. A retry whose
 * original is on another page stays where the list put it.
 *
 * A list sorted newest first (by creation or by schedule) puts a chain's earliest retries on the
 * original's page, so counting from the original numbers them right, unless a status filter hides
 * some attempts: `numbered` is false then.
 */
export function groupRetryChains(events: readonly Event[], options: { numbered: boolean }): EventRow[] {
  const onPage = new Set(events.map((event) => event.id));
  const retries = new Map<string, Event[]>();
  for (const event of events) {
    if (event.retry_of === null || !onPage.has(event.retry_of)) continue;
    retries.set(event.retry_of, [...(retries.get(event.retry_of) ?? []), event]);
  }
  const rows: EventRow[] = [];
  for (const event of events) {
    if (event.retry_of !== null && onPage.has(event.retry_of)) continue;
    rows.push({ kind: 'event', event });
    const chain = [...(retries.get(event.id) ?? [])].sort(bySchedule);
    chain.forEach((retry, index) =>
      rows.push({ kind: 'retry', event: retry, number: options.numbered ? index + 1 : undefined }),
    );
  }
  return rows;
}

/** A row of the list: an event, a retry under its original, or a cron's upcoming runs in one. */
export type ListRow = EventRow | { kind: 'upcoming'; cronId: string; events: Event[] };

/**
 * Pending events of the same cron in one row, placed where the first of them was: a cron firing
 * every few seconds keeps a dozen runs pending, and they would push every result down.
 */
export function collapseUpcoming(rows: readonly EventRow[]): ListRow[] {
  const groups = new Map<string, Event[]>();
  for (const row of rows) {
    const { event } = row;
    if (row.kind !== 'event' || event.status !== 'pending' || event.cron_id === null) continue;
    groups.set(event.cron_id, [...(groups.get(event.cron_id) ?? []), event]);
  }
  const listed: ListRow[] = [];
  const placed = new Set<string>();
  for (const row of rows) {
    const cronId = row.event.cron_id;
    const group = cronId === null ? undefined : groups.get(cronId);
    if (row.kind !== 'event' || row.event.status !== 'pending' || !cronId || !group || group.length < 2) {
      listed.push(row);
      continue;
    }
    if (placed.has(cronId)) continue;
    placed.add(cronId);
    listed.push({ kind: 'upcoming', cronId, events: [...group].sort(bySchedule) });
  }
  return listed;
}
