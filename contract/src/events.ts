import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  CreateHeaders,
  DeleteResult,
  EventStatus,
  HttpMethod,
  IdParams,
  JsonValue,
  PayloadInput,
  PaginationQuery,
  RetryConfig,
  RetryConfigInput,
  Timestamp,
  TimeoutMs,
  TimeoutMsInput,
  Uuid,
  WebhookHeaders,
  WebhookUrl,
  ErrorBody,
  dataOf,
  idempotencyResponses,
  pageOf,
} from './common.js';

const c = initContract();

/** One webhook call to make at `scheduled_at`, with the recorded outcome once it ran. */
export const Event = z.object({
  id: Uuid,
  cron_id: Uuid.nullable().describe('The cron that created this event; null when created through the API.'),
  retry_of: Uuid.nullable().describe(
    'The original event when this event is a retry attempt; null otherwise.',
  ),
  replay_of: Uuid.nullable().describe(
    'The event this one replays (POST /events/{id}/replay); null otherwise.',
  ),
  scheduled_at: Timestamp,
  executed_at: Timestamp.nullable().describe('When the call was made; null until executed.'),
  status: EventStatus,
  webhook_url: z.string(),
  method: HttpMethod,
  headers: z.record(z.string()).nullable(),
  payload: JsonValue.nullable(),
  retry_config: RetryConfig.nullable(),
  timeout_ms: TimeoutMs,
  response_status: z
    .number()
    .int()
    .nullable()
    .describe('HTTP status of the response; null until executed or when no response came.'),
  response_headers: z.record(z.string()).nullable(),
  response_body: z.string().nullable().describe('First 1 KB of the response body.'),
  response_duration: z
    .number()
    .int()
    .nullable()
    .describe('Milliseconds from the start of the call to the end of the response.'),
  response_error: z.string().nullable().describe('Why the call failed; null on success or before execution.'),
  created_at: Timestamp,
  updated_at: Timestamp,
  team_id: Uuid,
});
/** One webhook call and its outcome. */
export type Event = z.infer<typeof Event>;

/** The body of `POST` and `PUT` on events. `PUT` replaces the whole event: omitted fields take their defaults. */
export const EventInput = z
  .object({
    webhook_url: WebhookUrl,
    scheduled_at: Timestamp.describe('When to call the webhook; must be in the future.'),
    method: HttpMethod.default('POST'),
    headers: WebhookHeaders.nullable().default(null),
    payload: PayloadInput,
    retry_config: RetryConfigInput.nullable().default(null),
    timeout_ms: TimeoutMsInput.default(null),
  })
  .strict();
/** The body of `POST` and `PUT` on events, as sent. */
export type EventInput = z.input<typeof EventInput>;
/** The body of `POST` and `PUT` on events, with defaults applied. */
export type ParsedEventInput = z.output<typeof EventInput>;

/**
 * Orders of the event list. `created_at` (the default) and its explicit spelling `-created_at` are
 * newest created first; `scheduled_at` is soonest due first, `-scheduled_at` latest due first. The id
 * breaks ties in the same direction, so pages are stable.
 */
export const EventSort = z
  .enum(['created_at', '-created_at', 'scheduled_at', '-scheduled_at'])
  .describe(
    'created_at (default) or -created_at: newest created first; scheduled_at: soonest due first; -scheduled_at: latest due first.',
  );
/** An order of the event list. */
export type EventSort = z.infer<typeof EventSort>;

/** Most events one `POST /api/v1/events/batch` creates. */
export const MAX_BATCH_EVENTS = 1000;

/** The body of `POST /api/v1/events/batch`: 1 to 1,000 events, all created or none. */
export const EventBatchInput = z
  .object({
    events: z
      .array(EventInput)
      .min(1, 'events must hold at least one event')
      .max(MAX_BATCH_EVENTS, `events must hold at most ${MAX_BATCH_EVENTS} events`)
      .describe(
        'The events to schedule, each as for POST /events; a problem is reported at ["events", index, field].',
      ),
  })
  .strict();
/** The body of `POST /api/v1/events/batch`, as sent. */
export type EventBatchInput = z.input<typeof EventBatchInput>;

/** Query parameters of `GET /api/v1/events`. */
export const EventListQuery = PaginationQuery.extend({
  status: EventStatus.optional().describe('Only events in this state.'),
  cron_id: Uuid.optional().describe('Only events created by this cron.'),
  sort: EventSort.default('created_at'),
  scheduled_after: Timestamp.optional().describe('Only events scheduled at or after this time (inclusive).'),
  scheduled_before: Timestamp.optional().describe('Only events scheduled before this time (exclusive).'),
  url_contains: z
    .string()
    .min(1, 'url_contains must not be empty')
    .max(200, 'url_contains must be at most 200 characters')
    .optional()
    .describe(
      'Only events whose webhook_url contains this text, ignoring case. Its rows are read (no index): combine it with scheduled_after or cron_id on a large team.',
    ),
}).strict();
/** Query parameters of `GET /api/v1/events`, as sent. */
export type EventListQuery = z.input<typeof EventListQuery>;

/** Most events one `POST /api/v1/events/replay` replays. */
export const MAX_REPLAY_EVENTS = 10_000;
/** Most new events a bulk replay's answer lists. */
export const REPLAY_LISTED_EVENTS = 100;

/** The final states a bulk replay selects events by. */
export const ReplayStatus = z
  .enum(['failed', 'success'])
  .describe(
    'Replay the deliveries that ended in this state (original events; their retry attempts are not replayed again).',
  );
/** The final states a bulk replay selects events by. */
export type ReplayStatus = z.infer<typeof ReplayStatus>;

/** The body of `POST /api/v1/events/replay`: which finished events of the team to replay. */
export const EventReplayFilter = z
  .object({
    status: ReplayStatus,
    cron_id: Uuid.optional().describe('Only events created by this cron.'),
    destination: z
      .string()
      .min(1, 'destination must not be empty')
      .max(2048, 'destination must be at most 2048 characters')
      .optional()
      .describe(
        'Only events whose calls go to this origin (scheme, host and port, e.g. https://hooks.example.com), in any spelling of it.',
      ),
    scheduled_after: Timestamp.optional().describe(
      'Only events scheduled at or after this time (inclusive).',
    ),
    scheduled_before: Timestamp.optional().describe('Only events scheduled before this time (exclusive).'),
  })
  .strict();
/** The body of `POST /api/v1/events/replay`, as sent. */
export type EventReplayFilter = z.input<typeof EventReplayFilter>;
/** The body of `POST /api/v1/events/replay`, parsed. */
export type ParsedEventReplayFilter = z.output<typeof EventReplayFilter>;

/** The answer of `POST /api/v1/events/replay`. */
export const EventReplayResult = z.object({
  replayed: z.number().int().describe('How many events were replayed: one new event for each match.'),
  data: z
    .array(Event)
    .describe(
      `The first ${REPLAY_LISTED_EVENTS} new events, in the scheduled order of the events they replay.`,
    ),
});
/** The answer of `POST /api/v1/events/replay`. */
export type EventReplayResult = z.infer<typeof EventReplayResult>;

/** The event routes. */
export const eventsContract = c.router({
  list: {
    method: 'GET',
    path: '/events',
    query: EventListQuery,
    responses: { 200: pageOf(Event) },
    summary: 'List events',
    description:
      'Events of the caller’s team, including retry attempts: newest first, or by scheduled time with sort; scheduled_after and scheduled_before bound the scheduled time.',
  },
  create: {
    method: 'POST',
    path: '/events',
    headers: CreateHeaders,
    body: EventInput,
    responses: { 201: dataOf(Event), 403: ErrorBody, ...idempotencyResponses },
    summary: 'Schedule an event',
    description:
      'Schedules a one-time webhook call at scheduled_at. Refused with 403 QUOTA_EXCEEDED when the team already has its limit of pending events (1,000,000 by default) or of their bytes (1 GiB of payloads and headers by default), and with 400 VALIDATION_ERROR for a payload over 64 KiB as JSON or headers over 16 KiB together.',
  },
  createMany: {
    method: 'POST',
    path: '/events/batch',
    headers: CreateHeaders,
    body: EventBatchInput,
    responses: { 201: z.object({ data: z.array(Event) }), 403: ErrorBody, ...idempotencyResponses },
    summary: 'Schedule events in a batch',
    description:
      'Schedules 1 to 1,000 events in one transaction: all are created, in the order given, or none (400 VALIDATION_ERROR whose paths start with ["events", index]; 403 QUOTA_EXCEEDED when they would take the team past its pending events or pending bytes).',
  },
  replayMany: {
    method: 'POST',
    path: '/events/replay',
    headers: CreateHeaders,
    body: EventReplayFilter,
    responses: { 201: EventReplayResult, 403: ErrorBody, ...idempotencyResponses },
    summary: 'Replay the events a filter matches',
    description:
      'Replays, in one transaction, every original event of the caller’s team that matches the filter, each as POST /events/{id}/replay does (a new event due now with replay_of set). At most 10,000 events: a filter matching more is refused with 400 BAD_REQUEST whose details give the count and the limit; narrow it with cron_id, destination or the time window. All new events count against the team’s pending events and pending bytes (403 QUOTA_EXCEEDED when they would pass either: nothing is replayed). Answers how many were replayed and the first 100 new events.',
  },
  replay: {
    method: 'POST',
    path: '/events/:id/replay',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 201: dataOf(Event), 403: ErrorBody },
    summary: 'Replay an event',
    description:
      'Schedules a new event due now with the same webhook_url, method, headers, payload, retry_config and timeout_ms, and replay_of set (cron_id null). Only a success or failed event can be replayed (otherwise 400 BAD_REQUEST with details.currentStatus). It counts against the team’s pending events and pending bytes like a created event (403 QUOTA_EXCEEDED when either is full).',
  },
  get: {
    method: 'GET',
    path: '/events/:id',
    pathParams: IdParams,
    responses: { 200: dataOf(Event) },
    summary: 'Get an event',
    description:
      'One event of the caller’s team with the outcome of its call once executed (response_status, response_body, response_duration, response_error).',
  },
  update: {
    method: 'PUT',
    path: '/events/:id',
    pathParams: IdParams,
    body: EventInput,
    responses: { 200: dataOf(Event), 403: ErrorBody },
    summary: 'Replace a pending event',
    description:
      'Full replacement: omitted optional fields take their defaults. Only a pending event can be updated (otherwise 400 BAD_REQUEST with details.currentStatus). A larger payload or headers than before count against the team’s pending bytes (403 QUOTA_EXCEEDED when that would take it past its limit).',
  },
  delete: {
    method: 'DELETE',
    path: '/events/:id',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 200: DeleteResult },
    summary: 'Delete an event',
    description:
      'Deletes an event created through the API, with its retry attempts. Events created by a cron, retry attempts, and events being processed cannot be deleted (400 BAD_REQUEST).',
  },
});
