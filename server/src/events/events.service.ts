import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventStatus, ParsedEventInput } from '@webhook-scheduler/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.js';
import { type Page, assertPageInRange } from '../shared/page.js';
import type { Scheduling } from '../shared/scheduling.js';
import { type Refusal, deleteRefusal, eventInputIssues, updateRefusal } from './event.rules.js';
import { type EventDefinition, deleteEventAndRetries, updateEventDefinition } from './store/event-changes.js';
import type { EventRow } from './store/event-row.js';
import { countEvents, findAttempts, findEvent, pageOfEvents } from './store/event-queries.js';
import { insertPendingEvents } from './store/pending-events.js';

type ListQuery = {
  page: number;
  limit: number;
  status?: EventStatus | undefined;
  cron_id?: string | undefined;
};

function definition(input: ParsedEventInput, now: Date): EventDefinition {
  const issues = eventInputIssues(input, now);
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    webhookUrl: input.webhook_url,
    scheduledAt: new Date(input.scheduled_at),
    method: input.method,
    headers: input.headers,
    payload: input.payload,
    retryConfig: input.retry_config,
  };
}

function refuse(refusal: Refusal | undefined): void {
  if (refusal) throw new BadRequestError(refusal.message, refusal.details);
}

/** The fields the event rules look at. */
const stateOf = (row: EventRow) => ({ status: row.status, cronId: row.cron_id, retryOf: row.retry_of });

export async function listEvents(
  em: EntityManager,
  teamId: string,
  query: ListQuery,
): Promise<Page<EventRow>> {
  const filter = { teamId, status: query.status, cronId: query.cron_id };
  const total = await countEvents(em, filter);
  assertPageInRange(query, total);
  return { items: total === 0 ? [] : await pageOfEvents(em, filter, query), total };
}

/** Schedules an event: one statement, or a transaction with its second's timer job when it needs one. */
export async function createEvent(
  em: EntityManager,
  teamId: string,
  input: ParsedEventInput,
  now: Date,
  scheduling: Scheduling,
): Promise<EventRow> {
  const event = {
    ...definition(input, now),
    id: randomUUID(),
    teamId,
    cronId: null,
    retryOf: null,
    attempt: 0,
  };
  const [row] = await insertPendingEvents(em, scheduling.timers, [event], now, { returnRows: true });
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function getEvent(em: EntityManager, teamId: string, id: string): Promise<EventRow> {
  const row = await findEvent(em, teamId, id);
  if (!row) throw new NotFoundError('Event');
  return row;
}

/**
 * Replaces a pending event. The row is locked for the check and the write, so the scheduler cannot
 * claim it in between: after this commits, only the new definition can fire.
 */
export async function replaceEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  input: ParsedEventInput,
  now: Date,
  scheduling: Scheduling,
): Promise<EventRow> {
  const changes = definition(input, now);
  return em.transactional(async (tx) => {
    const found = await findEvent(tx, teamId, id, { forUpdate: true });
    if (!found) throw new NotFoundError('Event');
    refuse(updateRefusal(stateOf(found)));
    return updateEventDefinition(tx, scheduling.timers, id, { ...changes, now });
  });
}

/** Deletes a manual original event and its retry attempts. */
export async function deleteEvent(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const found = await findEvent(tx, teamId, id, { forUpdate: true });
    if (!found) throw new NotFoundError('Event');
    refuse(deleteRefusal(stateOf(found)));
    await deleteEventAndRetries(tx, id);
  });
}

/** The attempts of the delivery an event belongs to (the event may be the original or a retry). */
export async function listAttempts(em: EntityManager, teamId: string, id: string): Promise<EventRow[]> {
  const event = await getEvent(em, teamId, id);
  return findAttempts(em, teamId, event.retry_of ?? event.id);
}
