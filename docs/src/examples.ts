import type { Contract } from '@webhook-scheduler/contract';
import {
  OUT_OF_RANGE,
  error,
  errors,
  idempotencyErrors,
  invalid,
  notUuid,
  pendingBytesExceeded,
  quotaExceeded,
} from './example-errors.js';

/** `crons.list`, `events.create`…: a route of the contract by its key, as in the operation ids. */
export type RouteKey = {
  [Group in keyof Contract]: `${Group}.${Extract<keyof Contract[Group], string>}`;
}[keyof Contract];

/** The examples of one operation: its request body (when it has one) and a body per response status. */
export interface RouteExamples {
  request?: unknown;
  responses: Record<number, unknown>;
}

const TEAM_ID = '9b0e7c52-61d4-4f0e-8a7b-2d6c4e8f1a30';
const CRON_ID = '2f1c9a4e-8a43-4c57-9d5e-3c1b6f0a7d21';
const EVENT_ID = '6d7a1f3b-2c4e-4b8a-9f01-5e6d7c8b9a02';

const cronInput = {
  webhook_url: 'https://example.com/hooks/daily-report',
  cron_expression: '0 9 * * MON-FRI',
  timezone: 'Europe/Paris',
  method: 'POST',
  headers: { 'x-report': 'daily' },
  payload: { report: 'sales' },
  retry_config: { maxRetries: 3, backoffMs: 1000, backoffType: 'exponential' },
  timeout_ms: null,
  pause_after_failures: 5,
};

const cron = {
  id: CRON_ID,
  ...cronInput,
  is_active: true,
  created_at: '2030-01-06T08:15:00.000Z',
  updated_at: '2030-01-06T08:15:00.000Z',
  team_id: TEAM_ID,
  next_run_at: '2030-01-07T08:00:00.000Z',
  last_run_at: '2030-01-06T08:00:00.031Z',
  last_status: 'success',
  consecutive_failures: 0,
  paused_reason: null,
};

const eventInput = {
  webhook_url: 'https://example.com/hooks/reminder',
  scheduled_at: '2030-01-07T09:00:00.000Z',
  method: 'POST',
  payload: { user: 42 },
  retry_config: { maxRetries: 3, backoffMs: 1000 },
  timeout_ms: 10000,
};

const pendingEvent = {
  id: EVENT_ID,
  cron_id: null,
  retry_of: null,
  replay_of: null,
  scheduled_at: eventInput.scheduled_at,
  executed_at: null,
  status: 'pending',
  webhook_url: eventInput.webhook_url,
  method: 'POST',
  headers: null,
  payload: eventInput.payload,
  retry_config: { maxRetries: 3, backoffMs: 1000, backoffType: 'exponential' },
  timeout_ms: eventInput.timeout_ms,
  response_status: null,
  response_headers: null,
  response_body: null,
  response_duration: null,
  response_error: null,
  created_at: '2030-01-06T08:15:00.000Z',
  updated_at: '2030-01-06T08:15:00.000Z',
  team_id: TEAM_ID,
};

const deliveredEvent = {
  ...pendingEvent,
  executed_at: '2030-01-07T09:00:00.012Z',
  status: 'success',
  response_status: 200,
  response_headers: { 'content-type': 'application/json' },
  response_body: '{"ok":true}',
  response_duration: 84,
  updated_at: '2030-01-07T09:00:00.101Z',
};

const destination = {
  origin: 'https://hooks.example.com',
  pending: 12,
  in_flight: 2,
  calls_24h: 1440,
  failures_24h: 3,
  last_status: 'success',
  last_response_status: 200,
  last_call_at: '2030-01-07T09:29:58.120Z',
  circuit: 'closed',
  open_until: null,
  retry_after_until: null,
  rate_limit: { requests: 10, per: 'second' },
  max_in_flight: 20,
  paused: false,
};
const originNotValid = invalid(
  ['origin'],
  'origin must be scheme, host and port only, such as https://hooks.example.com',
);

/** Examples of the destination routes (docs/reference/behaviour.md#destinations). */
const DESTINATION_EXAMPLES = {
  'destinations.list': {
    responses: {
      200: { data: [destination], pagination: { page: 0, limit: 100, total: 1 } },
      ...errors(
        'Route',
        invalid(['sort'], "Invalid enum value. Expected '-last_call_at' | 'origin', received 'name'"),
        OUT_OF_RANGE,
      ),
    },
  },
  'destinations.get': { responses: { 200: { data: destination }, ...errors('Destination', originNotValid) } },
  'destinations.patch': {
    request: { rate_limit: { requests: 10, per: 'second' }, max_in_flight: 20, paused: false },
    responses: {
      200: { data: destination },
      ...errors(
        'Route',
        invalid(
          ['max_in_flight'],
          "max_in_flight must be from 1 to 50 (the service's limit per origin, DESTINATION_MAX_IN_FLIGHT)",
        ),
      ),
    },
  },
} satisfies Partial<Record<RouteKey, RouteExamples>>;

/** An example for every request body and every response of every route, checked against the contract. */
export const EXAMPLES: Record<RouteKey, RouteExamples> = {
  'crons.list': {
    responses: {
      200: { data: [cron], pagination: { page: 0, limit: 100, total: 1 } },
      ...errors('Route', invalid(['limit'], 'Number must be less than or equal to 1000'), OUT_OF_RANGE),
    },
  },
  'crons.create': {
    request: cronInput,
    responses: {
      201: { data: cron },
      403: quotaExceeded('active_crons', 1000),
      ...idempotencyErrors,
      ...errors(
        'Route',
        invalid(['cron_expression'], 'invalid cron expression: expected 5 fields (or 6 with seconds), got 3'),
      ),
    },
  },
  'crons.get': { responses: { 200: { data: cron }, ...errors('Cron', notUuid) } },
  'crons.update': {
    request: { ...cronInput, cron_expression: '0 8 * * MON-FRI' },
    responses: {
      200: { data: { ...cron, cron_expression: '0 8 * * MON-FRI', updated_at: '2030-01-06T10:00:00.000Z' } },
      403: quotaExceeded('active_crons', 1000),
      ...errors(
        'Cron',
        invalid(['timezone'], 'timezone must be an IANA time zone name such as "Europe/Paris"'),
      ),
    },
  },
  'crons.patch': {
    request: { is_active: false },
    responses: {
      200: {
        data: { ...cron, is_active: false, next_run_at: null, updated_at: '2030-01-06T10:00:00.000Z' },
      },
      403: quotaExceeded('active_crons', 1000),
      ...errors(
        'Cron',
        invalid(['cron_expression'], 'invalid cron expression: minute 61 is out of range (0-59)'),
      ),
    },
  },
  'crons.trigger': {
    responses: {
      201: {
        data: {
          ...pendingEvent,
          id: '0c4f2d8e-5b7a-4e19-8c3d-1a2b3c4d5e6f',
          cron_id: CRON_ID,
          scheduled_at: '2030-01-06T10:00:00.042Z',
          webhook_url: cronInput.webhook_url,
          headers: cronInput.headers,
          payload: cronInput.payload,
          created_at: '2030-01-06T10:00:00.042Z',
          updated_at: '2030-01-06T10:00:00.042Z',
        },
      },
      403: quotaExceeded('pending_events', 1_000_000),
      ...errors('Cron', notUuid),
    },
  },
  'crons.delete': { responses: { 200: { data: { success: true } }, ...errors('Cron', notUuid) } },
  'events.list': {
    responses: {
      200: { data: [deliveredEvent], pagination: { page: 0, limit: 20, total: 1 } },
      ...errors(
        'Route',
        invalid(
          ['status'],
          "Invalid enum value. Expected 'pending' | 'processing' | 'success' | 'failed', received 'done'",
        ),
        OUT_OF_RANGE,
      ),
    },
  },
  'events.create': {
    request: eventInput,
    responses: {
      201: { data: pendingEvent },
      403: quotaExceeded('pending_events', 1_000_000),
      ...idempotencyErrors,
      ...errors(
        'Route',
        invalid(['scheduled_at'], 'scheduled_at must be in the future (now is 2030-01-07T09:30:00.000Z)'),
      ),
    },
  },
  'events.createMany': {
    request: { events: [eventInput, { ...eventInput, scheduled_at: '2030-01-07T10:00:00.000Z' }] },
    responses: {
      201: {
        data: [
          pendingEvent,
          {
            ...pendingEvent,
            id: '7e8b2a4c-3d5f-4c9b-8a12-6f7e8d9c0b13',
            scheduled_at: '2030-01-07T10:00:00.000Z',
          },
        ],
      },
      403: quotaExceeded('pending_events', 1_000_000),
      ...idempotencyErrors,
      ...errors(
        'Route',
        invalid(
          ['events', 1, 'scheduled_at'],
          'scheduled_at must be in the future (now is 2030-01-07T09:30:00.000Z)',
        ),
      ),
    },
  },
  'events.replayMany': {
    request: {
      status: 'failed',
      destination: 'https://example.com',
      scheduled_after: '2030-01-07T08:00:00.000Z',
    },
    responses: {
      201: {
        replayed: 1,
        data: [
          {
            ...pendingEvent,
            id: '9a0d4c6e-5f7b-4ebc-8c34-8b9f0a1e2d35',
            replay_of: EVENT_ID,
            scheduled_at: '2030-01-07T12:00:00.018Z',
            created_at: '2030-01-07T12:00:00.018Z',
            updated_at: '2030-01-07T12:00:00.018Z',
          },
        ],
      },
      403: quotaExceeded('pending_events', 1_000_000),
      ...idempotencyErrors,
      ...errors(
        'Route',
        error(
          'BAD_REQUEST',
          '12500 events match the filter; at most 10000 are replayed at once: narrow the filter (cron_id, destination, scheduled_after, scheduled_before)',
          { matched: 12500, max: 10000 },
        ),
      ),
    },
  },
  'events.replay': {
    responses: {
      201: {
        data: {
          ...pendingEvent,
          id: '8f9c3b5d-4e6a-4dab-9b23-7a8f9e0d1c24',
          replay_of: EVENT_ID,
          scheduled_at: '2030-01-07T12:00:00.018Z',
          created_at: '2030-01-07T12:00:00.018Z',
          updated_at: '2030-01-07T12:00:00.018Z',
        },
      },
      403: pendingBytesExceeded(2048),
      ...errors(
        'Event',
        error('BAD_REQUEST', 'Only success or failed events can be replayed; this event is pending', {
          currentStatus: 'pending',
        }),
      ),
    },
  },
  'events.get': { responses: { 200: { data: deliveredEvent }, ...errors('Event', notUuid) } },
  'events.update': {
    request: { ...eventInput, scheduled_at: '2030-01-07T10:00:00.000Z' },
    responses: {
      200: {
        data: {
          ...pendingEvent,
          scheduled_at: '2030-01-07T10:00:00.000Z',
          updated_at: '2030-01-06T10:00:00.000Z',
        },
      },
      403: pendingBytesExceeded(1500),
      ...errors(
        'Event',
        error('BAD_REQUEST', 'Only pending events can be updated; this event is success', {
          currentStatus: 'success',
        }),
      ),
    },
  },
  'events.delete': {
    responses: {
      200: { data: { success: true } },
      ...errors(
        'Event',
        error(
          'BAD_REQUEST',
          'Events created by a cron cannot be deleted directly; update or delete the cron',
        ),
      ),
    },
  },
  ...DESTINATION_EXAMPLES,
};

/** What each response status means, for the response descriptions. */
export const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'VALIDATION_ERROR (details lists each field problem) or BAD_REQUEST (a business rule refused the change)',
  401: 'UNAUTHORIZED: missing, unknown, expired or revoked API key',
  403: 'QUOTA_EXCEEDED: the team has used up a quota (details: quota, limit, current)',
  404: 'NOT_FOUND: no such resource in the caller’s team',
  409: 'IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still being handled',
  413: 'VALIDATION_ERROR: the request body is larger than the service accepts',
  429: 'RATE_LIMITED: too many requests for this API key; wait Retry-After seconds',
  422: 'IDEMPOTENCY_KEY_MISMATCH: this Idempotency-Key was used with another request body',
  500: 'INTERNAL_SERVER_ERROR: a server failure, or a page past the end of a list (details: page, limit, total; that one would fail again)',
};
