import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { EventStatus, ParsedEventInput } from '@webhook-scheduler/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.js';
import { type Scheduling, insertSlotJobs } from '../scheduling/slot-jobs.js';
import { type Page, listNewestFirst } from '../shared/list.service.js';
import { type Event, EventSchema } from './event.entity.js';
import { type Refusal, deleteRefusal, eventInputIssues, updateRefusal } from './event.rules.js';

type ListQuery = {
  page: number;
  limit: number;
  status?: EventStatus | undefined;
  cron_id?: string | undefined;
};

function definition(input: ParsedEventInput, now: Date) {
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

export async function listEvents(em: EntityManager, teamId: string, query: ListQuery): Promise<Page<Event>> {
  return listNewestFirst(
    em,
    EventSchema,
    {
      teamId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.cron_id ? { cronId: query.cron_id } : {}),
    },
    query,
  );
}

export async function createEvent(
  em: EntityManager,
  teamId: string,
  input: ParsedEventInput,
  now: Date,
  scheduling: Scheduling,
): Promise<Event> {
  const changes = definition(input, now);
  let committed = () => {};
  const event = await em.transactional(async (tx) => {
    const created = tx.create(EventSchema, {
      id: randomUUID(),
      teamId,
      cronId: null,
      retryOf: null,
      attempt: 0,
      ...changes,
      executedAt: null,
      status: 'pending',
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      responseDuration: null,
      responseError: null,
      leaseToken: null,
      leaseExpiresAt: null,
      claimCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    committed = await insertSlotJobs(tx, scheduling.planner, [created.scheduledAt], now);
    return created;
  });
  committed();
  return event;
}

export async function getEvent(em: EntityManager, teamId: string, id: string): Promise<Event> {
  const event = await em.findOne(EventSchema, { id, teamId });
  if (!event) throw new NotFoundError('Event');
  return event;
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
): Promise<Event> {
  const changes = definition(input, now);
  let committed = () => {};
  const event = await em.transactional(async (tx) => {
    const found = await tx.findOne(EventSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!found) throw new NotFoundError('Event');
    refuse(updateRefusal(found));
    tx.assign(found, { ...changes, updatedAt: now });
    await tx.flush();
    committed = await insertSlotJobs(tx, scheduling.planner, [found.scheduledAt], now);
    return found;
  });
  committed();
  return event;
}

/** Deletes a manual original event and its retry attempts. */
export async function deleteEvent(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const event = await tx.findOne(EventSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!event) throw new NotFoundError('Event');
    refuse(deleteRefusal(event));
    await tx.nativeDelete(EventSchema, { retryOf: id });
    tx.remove(event);
    await tx.flush();
  });
}
