import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSort, EventStatus, ParsedEventInput, TeamLimits } from '@webhook-scheduler/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.js';
import { requestSizeIssues } from '../limits/limits.rules.js';
import { pendingQuotaOf, withinQuotas } from '../limits/quota-at-commit.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import { assertPageInRange } from '../shared/page.js';
import { askForPendingQuota } from '../shared/quota-check.js';
import { requestBytes } from '../shared/request-bytes.js';
import { timeoutIssues } from '../shared/timeout.rules.js';
import type { Scheduling } from '../shared/scheduling-deps.js';
import {
  type Refusal,
  batchInputIssues,
  deleteRefusal,
  eventInputIssues,
  updateRefusal,
} from './event.rules.js';
import { type EventDefinition, deleteEventAndRetries, updateEventDefinition } from './store/event-changes.js';
import type { EventRow } from './store/event-row.js';
import {
  countEvents,
  findAttempts,
  findEvent,
  pendingBytesOf,
  STREAM_CHUNK,
  pageOfEventsInChunks,
} from './store/event-queries.js';
import { type PendingEvent, insertPendingEvents } from './store/pending-events.js';
import { manualEvent } from './manual-event.js';
import { requestFrom } from '../shared/request-columns.js';

type ListQuery = {
  page: number;
  limit: number;
  status?: EventStatus | undefined;
  cron_id?: string | undefined;
  sort?: EventSort | undefined;
  scheduled_after?: string | undefined;
  scheduled_before?: string | undefined;
  url_contains?: string | undefined;
};

const dateOrUndefined = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

function validDefinition(
  input: ParsedEventInput,
  limits: TeamLimits,
  now: Date,
  maxTimeoutMs: number,
): EventDefinition {
  const issues = [
    ...eventInputIssues(input, now),
    ...requestSizeIssues(input, limits),
    ...timeoutIssues(input.timeout_ms, maxTimeoutMs),
  ];
  if (issues.length > 0) throw new ValidationError(issues);
  return toDefinition(input);
}

function toDefinition(input: ParsedEventInput): EventDefinition {
  return { ...requestFrom(input), scheduledAt: new Date(input.scheduled_at) };
}

function refuse(refusal: Refusal | undefined): void {
  if (refusal) throw new BadRequestError(refusal.message, refusal.details);
}

/** The fields the event rules look at. */
const stateOf = (row: EventRow) => ({ status: row.status, cronId: row.cron_id, retryOf: row.retry_of });

/**
 * A page of events as chunks of rows, read as they are consumed, and the exact total. A page out
 * of range is refused before anything is read.
 */
export async function listEvents(
  em: EntityManager,
  teamId: string,
  query: ListQuery,
): Promise<{ chunks: AsyncIterable<EventRow[]>; total: number; oneStatement: boolean }> {
  const filter = {
    teamId,
    status: query.status,
    cronId: query.cron_id,
    scheduledAfter: dateOrUndefined(query.scheduled_after),
    scheduledBefore: dateOrUndefined(query.scheduled_before),
    urlContains: query.url_contains,
  };
  const total = await countEvents(em, filter);
  assertPageInRange(query, total);
  const order = { page: query.page, limit: query.limit, sort: query.sort ?? 'created_at' };
  return {
    chunks: total === 0 ? noChunks() : pageOfEventsInChunks(em.fork(), filter, order),
    total,
    oneStatement: query.limit <= STREAM_CHUNK,
  };
}

async function* noChunks(): AsyncGenerator<EventRow[]> {}

/** What creating or replacing an event needs besides the request. */
export interface EventWriteDeps {
  scheduling: Scheduling;
  limits: TeamLimitsSource;
}

/**
 * Schedules an event: one statement, or a transaction with its second's timer job when it needs
 * one. Its commit checks the team's pending quotas, exactly (shared/quota-check.ts).
 */
export async function createEvent(
  em: EntityManager,
  teamId: string,
  input: ParsedEventInput,
  now: Date,
  { scheduling, limits: source }: EventWriteDeps,
): Promise<EventRow> {
  const limits = await source.forTeam(teamId);
  const changes = validDefinition(input, limits, now, scheduling.webhookTimeoutMs);
  const [row] = await insertWithinQuota(em, teamId, [manualEvent(teamId, changes)], now, scheduling, limits);
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Inserts manual pending events, all or none: none when they would pass the team's quotas. */
async function insertWithinQuota(
  em: EntityManager,
  teamId: string,
  events: PendingEvent[],
  now: Date,
  scheduling: Scheduling,
  limits: TeamLimits,
): Promise<EventRow[]> {
  const quota = pendingQuotaOf(teamId, limits);
  const rows = await withinQuotas(em, (writer) =>
    insertPendingEvents(writer, scheduling.timers, events, now, { returnRows: true, quota }),
  );
  if (rows.length !== events.length) throw new Error('insert returned fewer rows than events');
  return rows;
}

/**
 * Schedules a batch: every item's problems at once (nothing is created then), or one multi-row
 * insert with the timer jobs of their seconds, in one transaction. Rows come back in input order.
 */
export async function createEvents(
  em: EntityManager,
  teamId: string,
  inputs: ParsedEventInput[],
  now: Date,
  { scheduling, limits: source }: EventWriteDeps,
): Promise<EventRow[]> {
  const limits = await source.forTeam(teamId);
  const issues = [
    ...batchInputIssues(inputs, now),
    ...inputs.flatMap((input, index) =>
      [
        ...requestSizeIssues(input, limits),
        ...timeoutIssues(input.timeout_ms, scheduling.webhookTimeoutMs),
      ].map((issue) => ({ ...issue, path: ['events', index, ...issue.path] })),
    ),
  ];
  if (issues.length > 0) throw new ValidationError(issues);
  const events = inputs.map((input) => manualEvent(teamId, toDefinition(input)));
  return insertWithinQuota(em, teamId, events, now, scheduling, limits);
}

export async function getEvent(em: EntityManager, teamId: string, id: string): Promise<EventRow> {
  const row = await findEvent(em, teamId, id);
  if (!row) throw new NotFoundError('Event');
  return row;
}

/**
 * Replaces a pending event. The row is locked for the check and the write, so the scheduler cannot
 * claim it in between: after this commits, only the new definition can fire. A larger request than
 * before counts against the team's pending bytes, checked at commit.
 */
export async function replaceEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  input: ParsedEventInput,
  now: Date,
  { scheduling, limits: source }: EventWriteDeps,
): Promise<EventRow> {
  const limits = await source.forTeam(teamId);
  const changes = validDefinition(input, limits, now, scheduling.webhookTimeoutMs);
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const found = await findEvent(tx, teamId, id, { lock: 'update' });
      if (!found) throw new NotFoundError('Event');
      refuse(updateRefusal(stateOf(found)));
      const held = await pendingBytesOf(tx, id);
      const grows = held.counted ? requestBytes(changes) - held.bytes : 0;
      if (grows > 0)
        await askForPendingQuota(tx, pendingQuotaOf(teamId, limits), { events: 0, bytes: grows });
      return updateEventDefinition(tx, scheduling.timers, id, { ...changes, now });
    }),
  );
}

/** Deletes a manual original event and its retry attempts. */
export async function deleteEvent(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const found = await findEvent(tx, teamId, id, { lock: 'update' });
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
