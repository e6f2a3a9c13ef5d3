import type { Event } from '@webhook-scheduler/sdk';

// The server decides (docs/reference/behaviour.md#event-updates-and-deletes); these only choose which buttons to offer.

/** Only a pending event can be edited. */
export function canEdit(event: Pick<Event, 'status'>): boolean {
  return event.status === 'pending';
}

/** Why the event cannot be deleted from here, or undefined when it can. */
export function deleteBlocker(event: Pick<Event, 'status' | 'cron_id' | 'retry_of'>): string | undefined {
  if (event.cron_id) return 'Events of a cron go away with the cron: edit or delete the cron instead.';
  if (event.retry_of) return 'Retry attempts are deleted with their original event.';
  if (event.status === 'processing')
    return 'The call is in flight or retries are scheduled; wait until it ends.';
  return undefined;
}

/** `one-time`, `cron` or `retry`: where an event comes from. */
export function originOf(event: Pick<Event, 'cron_id' | 'retry_of'>): 'one-time' | 'cron' | 'retry' {
  if (event.retry_of) return 'retry';
  return event.cron_id ? 'cron' : 'one-time';
}
