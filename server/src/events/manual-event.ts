import { newEventId } from '@webhook-scheduler/scheduler';
import { activeTraceContext } from '../tracing/trace-context.js';
import type { EventDefinition } from './store/event-changes.js';
import type { EventRow } from './store/event-row.js';
import type { PendingEvent } from './store/pending-events.js';
import { requestFrom } from '../shared/request-columns.js';

/** A new manual original event of the team. */
export function manualEvent(teamId: string, changes: EventDefinition): PendingEvent {
  const traceContext = activeTraceContext();
  return { ...changes, id: newEventId(), teamId, cronId: null, retryOf: null, attempt: 0, traceContext };
}

/** A replay of a finished event: its request and timeout, due now, with `replay_of` its id (no cron). */
export function replayOf(teamId: string, source: EventRow, now: Date): PendingEvent {
  return {
    ...manualEvent(teamId, { ...requestFrom(source), scheduledAt: now }),
    replayOf: source.id,
  };
}
