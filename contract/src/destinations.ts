import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CronRunStatus } from './crons.js';
import { PaginationQuery, Timestamp, dataOf, pageOf } from './common.js';

const c = initContract();

/** The window a destination's rate limit counts calls in. */
export const RateLimitPer = z.enum(['second', 'minute', 'hour']);
/** The window a destination's rate limit counts calls in. */
export type RateLimitPer = z.infer<typeof RateLimitPer>;

/** Bounds of a destination's settings. */
export const DESTINATION_LIMITS = { requests: { min: 1, max: 100_000 } } as const;

/** At most `requests` calls of the team start to the origin in any window of one `per`. */
export const DestinationRateLimit = z
  .object({
    requests: z
      .number()
      .int('requests must be a whole number')
      .min(1, 'requests must be from 1 to 100000')
      .max(100_000, 'requests must be from 1 to 100000'),
    per: RateLimitPer,
  })
  .strict();
/** A destination's rate limit. */
export type DestinationRateLimit = z.infer<typeof DestinationRateLimit>;

/** Whether calls to the origin go through: `open` after repeated failures, `half_open` while one call probes it. */
export const CircuitState = z.enum(['closed', 'open', 'half_open']);
/** The state of a destination's circuit breaker. */
export type CircuitState = z.infer<typeof CircuitState>;

/** An origin the team's webhooks call: its health, its waiting and running calls, and the team's settings for it. */
export const Destination = z.object({
  origin: z
    .string()
    .describe(
      'Scheme, host and port the calls connect to, as the URL standard writes an origin (https://hooks.example.com, http://127.0.0.1:8080).',
    ),
  pending: z.number().int().describe('The team’s events to this origin waiting to be sent.'),
  in_flight: z.number().int().describe('The team’s calls to this origin under way now.'),
  calls_24h: z.number().int().describe('Calls the team made to this origin in the last 24 hours.'),
  failures_24h: z.number().int().describe('Of those, the calls that failed.'),
  last_status: CronRunStatus.nullable().describe(
    'How the team’s last call to this origin ended; null before any.',
  ),
  last_response_status: z
    .number()
    .int()
    .nullable()
    .describe('The HTTP status of that call; null when no response arrived or before any call.'),
  last_call_at: Timestamp.nullable().describe('When the team’s last call to this origin started.'),
  circuit: CircuitState.describe(
    'closed: calls go through. open: after repeated failures no call starts until open_until. half_open: one call probes the origin.',
  ),
  open_until: Timestamp.nullable().describe(
    'While the circuit is open: when one call will probe the origin.',
  ),
  retry_after_until: Timestamp.nullable().describe(
    'When the origin answered 429 or 503 with Retry-After: no call of the team starts to it before this time.',
  ),
  rate_limit: DestinationRateLimit.nullable().describe(
    'The team’s rate limit for this origin; null for none.',
  ),
  max_in_flight: z
    .number()
    .int()
    .nullable()
    .describe('Most calls of the team to this origin at once; null for the service’s limit per origin.'),
  paused: z.boolean().describe('While true, no call of the team starts to this origin; its events wait.'),
});
/** An origin the team's webhooks call. */
export type Destination = z.infer<typeof Destination>;

/** The body of `PATCH /api/v1/destinations/{origin}`: fields left out keep their value, `null` clears one. */
export const DestinationPatch = z
  .object({
    rate_limit: DestinationRateLimit.nullable().optional(),
    max_in_flight: z
      .number()
      .int('max_in_flight must be a whole number')
      .min(1, 'max_in_flight must be at least 1')
      .nullable()
      .optional()
      .describe('Most calls at once, from 1 to the service’s limit per origin (DESTINATION_MAX_IN_FLIGHT).'),
    paused: z
      .boolean()
      .nullable()
      .optional()
      .describe('Pause (true) or resume (false or null) the team’s calls.'),
  })
  .strict();
/** The body of `PATCH /api/v1/destinations/{origin}`, as sent. */
export type DestinationPatch = z.input<typeof DestinationPatch>;

/** The orders of `GET /api/v1/destinations`. */
export const DestinationSort = z.enum(['-last_call_at', 'origin']);
/** The orders of `GET /api/v1/destinations`. */
export type DestinationSort = z.infer<typeof DestinationSort>;

/** Query parameters of `GET /api/v1/destinations`. */
export const DestinationListQuery = PaginationQuery.extend({
  sort: DestinationSort.optional().describe('-last_call_at (default: most recently called first) or origin.'),
}).strict();
/** Query parameters of `GET /api/v1/destinations`, as sent. */
export type DestinationListQuery = z.input<typeof DestinationListQuery>;

/** The origin in a path, URL-encoded (`https%3A%2F%2Fhooks.example.com`). */
export const OriginParams = z.object({
  origin: z
    .string()
    .min(1)
    .max(2048)
    .describe('The origin, URL-encoded, e.g. https%3A%2F%2Fhooks.example.com.'),
});

/** The destination routes. */
export const destinationsContract = c.router({
  list: {
    method: 'GET',
    path: '/destinations',
    query: DestinationListQuery,
    responses: { 200: pageOf(Destination) },
    summary: 'List destinations',
    description:
      'The origins the caller’s team has events waiting for, called within the event retention, or has settings for; most recently called first.',
  },
  get: {
    method: 'GET',
    path: '/destinations/:origin',
    pathParams: OriginParams,
    responses: { 200: dataOf(Destination) },
    summary: 'Get a destination',
    description: 'One origin of the caller’s team. An origin the team never used is answered 404 NOT_FOUND.',
  },
  patch: {
    method: 'PATCH',
    path: '/destinations/:origin',
    pathParams: OriginParams,
    body: DestinationPatch,
    responses: { 200: dataOf(Destination) },
    summary: 'Set a destination’s rate limit, concurrency or pause',
    description:
      'Sets the team’s own settings for an origin, before its first event too. Fields left out keep their value; null clears one. Pausing holds the team’s events to the origin pending; resuming sends them in order.',
  },
});
