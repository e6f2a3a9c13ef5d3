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
