import {
  type EventStatus,
  type ParsedEventInput,
  Timestamp,
  type ValidationIssue,
} from '@webhook-scheduler/contract';
import { sentField } from '../shared/sent-field.js';

/** Field problems that depend on the time: `scheduled_at` must be in the future. */
export function eventInputIssues(
  input: Pick<ParsedEventInput, 'scheduled_at'>,
  now: Date,
): ValidationIssue[] {
  return new Date(input.scheduled_at) > now
    ? []
    : [
        {
          path: ['scheduled_at'],
          message: `scheduled_at must be in the future (now is ${now.toISOString()})`,
        },
      ];
}

/**
 * The event rules on a request as sent, for when the contract refused it: a valid `scheduled_at`
 * is checked all the same, so that one answer names every problem.
 */
export function eventRequestIssues(sent: unknown, now: Date): ValidationIssue[] {
  const scheduledAt = Timestamp.safeParse(sentField(sent, 'scheduled_at'));
  return scheduledAt.success ? eventInputIssues({ scheduled_at: scheduledAt.data }, now) : [];
}

/** The event rules on every item of a batch, each problem at `["events", index, …]`. */
export function batchInputIssues(
  inputs: readonly Pick<ParsedEventInput, 'scheduled_at'>[],
  now: Date,
): ValidationIssue[] {
  return inputs.flatMap((input, index) =>
    eventInputIssues(input, now).map((issue) => ({ ...issue, path: ['events', index, ...issue.path] })),
  );
}

/** {@link batchInputIssues} on a batch as sent, for when the contract refused it. */
export function batchRequestIssues(sent: unknown, now: Date): ValidationIssue[] {
  const items = sentField(sent, 'events');
  if (!Array.isArray(items)) return [];
  return items.flatMap((item, index) =>
    eventRequestIssues(item, now).map((issue) => ({ ...issue, path: ['events', index, ...issue.path] })),
  );
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

/** Only a finished event (`success` or `failed`) can be replayed. */
export function replayRefusal(event: Pick<EventState, 'status'>): Refusal | undefined {
  if (event.status === 'success' || event.status === 'failed') return undefined;
  return {
    message: `Only success or failed events can be replayed; this event is ${event.status}`,
    details: { currentStatus: event.status },
  };
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
