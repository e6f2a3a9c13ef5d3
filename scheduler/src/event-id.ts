import { v7 } from 'uuid';

/**
 * A new event's id: a UUID version 7, whose first 48 bits are the creation time in milliseconds
 * (later ids sort higher, also within a millisecond). Events made together then sit together in the
 * primary keys of `events` and `event_queue`, so claims and outcomes touch few index pages rather
 * than one random page per event (bench/README.md, 2026-11-26).
 */
export function newEventId(): string {
  return v7();
}
