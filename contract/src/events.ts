import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
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
  Uuid,
  WebhookHeaders,
  WebhookUrl,
  dataOf,
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
  scheduled_at: Timestamp,
  executed_at: Timestamp.nullable().describe('When the call was made; null until executed.'),
  status: EventStatus,
  webhook_url: z.string(),
  method: HttpMethod,
  headers: z.record(z.string()).nullable(),
  payload: JsonValue.nullable(),
  retry_config: RetryConfig.nullable(),
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
  })
  .strict();
/** The body of `POST` and `PUT` on events, as sent. */
export type EventInput = z.input<typeof EventInput>;
/** The body of `POST` and `PUT` on events, with defaults applied. */
export type ParsedEventInput = z.output<typeof EventInput>;

/** Query parameters of `GET /api/v1/events`. */
export const EventListQuery = PaginationQuery.extend({
  status: EventStatus.optional().describe('Only events in this state.'),
  cron_id: Uuid.optional().describe('Only events created by this cron.'),
}).strict();
/** Query parameters of `GET /api/v1/events`, as sent. */
export type EventListQuery = z.input<typeof EventListQuery>;

/** The event routes. */
export const eventsContract = c.router({
  list: {
    method: 'GET',
    path: '/events',
    query: EventListQuery,
    responses: { 200: pageOf(Event) },
    summary: 'List events',
    description: 'Events of the caller’s team, newest first, including retry attempts.',
  },
  create: {
    method: 'POST',
    path: '/events',
    body: EventInput,
    responses: { 201: dataOf(Event) },
    summary: 'Schedule an event',
    description: 'Schedules a one-time webhook call at scheduled_at.',
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
    responses: { 200: dataOf(Event) },
    summary: 'Replace a pending event',
    description:
      'Full replacement: omitted optional fields take their defaults. Only a pending event can be updated (otherwise 400 BAD_REQUEST with details.currentStatus).',
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
