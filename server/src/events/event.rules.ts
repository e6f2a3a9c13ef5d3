import type { EventStatus, ParsedEventInput, ValidationIssue } from '@webhook-scheduler/contract';

/** Field problems that depend on the time: `scheduled_at` must be in the future. */
export function eventInputIssues(input: ParsedEventInput, now: Date): ValidationIssue[] {
  return new Date(input.scheduled_at) > now
    ? []
    : [
        {
          path: ['scheduled_at'],
          message: `scheduled_at must be in the future (now is ${now.toISOString()})`,
        },
      ];
}

interface EventState {
  status: EventStatus;
  cronId: string | null;
  retryOf: string | null;
}

/** A business rule that refuses a change, with what the client is told. */
export interface Refusal {
  message: string;
  details?: Record<string, unknown>;
}

/** Only a pending event can be replaced. */
export function updateRefusal(event: EventState): Refusal | undefined {
  if (event.status === 'pending') return undefined;
  return {
    message: `Only pending events can be updated; this event is ${event.status}`,
    details: { currentStatus: event.status },
  };
}

/**
 * Cron-made events and retry attempts belong to their cron or original; a manual original can be
 * deleted in any state but `processing`, while a call is in flight or retries are still scheduled.
 */
export function deleteRefusal(event: EventState): Refusal | undefined {
  if (event.cronId)
    return { message: 'Events created by a cron cannot be deleted directly; update or delete the cron' };
  if (event.retryOf)
    return { message: 'Retry attempts cannot be deleted directly; delete the original event' };
  if (event.status === 'processing') {
    return {
      message: 'An event cannot be deleted while it is processing',
      details: { currentStatus: event.status },
    };
  }
  return undefined;
}
