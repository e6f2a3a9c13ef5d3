import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  BooleanParam,
  CreateHeaders,
  DeleteResult,
  HttpMethod,
  IdParams,
  JsonValue,
  PayloadInput,
  PaginationQuery,
  RetryConfig,
  RetryConfigInput,
  TimeZone,
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
import { Event } from './events.js';

const c = initContract();

/** How a cron's occurrence ended. */
export const CronRunStatus = z
  .enum(['success', 'failed'])
  .describe('How an occurrence of a cron ended: its final attempt succeeded, or it failed.');
/** How a cron's occurrence ended. */
export type CronRunStatus = z.infer<typeof CronRunStatus>;
/** Why the service paused a cron. */
export const PausedReason = z
  .enum(['failures'])
  .describe(
    'Why the service paused a cron: "failures" when pause_after_failures occurrences failed in a row.',
  );
/** Why the service paused a cron. */
export type PausedReason = z.infer<typeof PausedReason>;

/** Bounds of `pause_after_failures`. */
export const PAUSE_AFTER_FAILURES_LIMITS = { min: 1, max: 1000 } as const;

const PauseAfterFailures = z
  .number()
  .int('pause_after_failures must be a whole number')
  .min(1, 'pause_after_failures must be from 1 to 1000')
  .max(1000, 'pause_after_failures must be from 1 to 1000')
  .nullable()
  .describe(
    'Pause the cron (is_active false, paused_reason "failures") after this many failed occurrences in a row, 1–1000; null (the default) never pauses it.',
  );

/** A recurring webhook: the service creates an event for each occurrence of its schedule. */
export const Cron = z.object({
  id: Uuid,
  cron_expression: z
    .string()
    .describe('5 fields, or 6 with a leading seconds field; or a nickname such as @hourly.'),
  timezone: z.string().nullable().describe('IANA time zone the schedule is read in; null means UTC.'),
  webhook_url: z.string(),
  method: HttpMethod,
  headers: z.record(z.string()).nullable(),
  payload: JsonValue.nullable(),
  retry_config: RetryConfig.nullable(),
  timeout_ms: TimeoutMs,
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  team_id: Uuid,
  pause_after_failures: z
    .number()
    .int()
    .nullable()
    .describe('After this many failed occurrences in a row the cron is paused; null never pauses it.'),
  next_run_at: Timestamp.nullable().describe('The next occurrence of the schedule; null when inactive.'),
  last_run_at: Timestamp.nullable().describe('When the last finished occurrence was last attempted.'),
  last_status: CronRunStatus.nullable().describe('How the last finished occurrence ended; null before any.'),
  consecutive_failures: z
    .number()
    .int()
    .describe(
      'Failed occurrences since the last successful one (an occurrence fails when its final attempt fails).',
    ),
  paused_reason: PausedReason.nullable().describe(
    'Why the service paused the cron: "failures" after pause_after_failures failed occurrences; null otherwise. Setting is_active to true clears it.',
  ),
});
/** A recurring webhook. */
export type Cron = z.infer<typeof Cron>;

/** The body of `POST` and `PUT` on crons. `PUT` replaces the whole cron: omitted fields take their defaults. */
export const CronInput = z
  .object({
    webhook_url: WebhookUrl,
    cron_expression: z
      .string()
      .min(1, 'cron_expression must not be empty')
      .max(256, 'cron_expression must be at most 256 characters')
      .describe(
        'Standard 5-field cron, or 6 fields with a leading seconds field. Ranges, lists, steps, names (MON, JAN), L, W, # and @yearly @annually @monthly @weekly @daily @midnight @hourly.',
      ),
    method: HttpMethod.default('POST'),
    timezone: TimeZone.nullable().default(null),
    headers: WebhookHeaders.nullable().default(null),
    payload: PayloadInput,
    retry_config: RetryConfigInput.nullable().default(null),
    timeout_ms: TimeoutMsInput.default(null),
    is_active: z.boolean().default(true),
    pause_after_failures: PauseAfterFailures.default(null),
  })
  .strict();
/** The body of `POST` and `PUT` on crons, as sent. */
export type CronInput = z.input<typeof CronInput>;
/** The body of `POST` and `PUT` on crons, with defaults applied. */
export type ParsedCronInput = z.output<typeof CronInput>;

/**
 * The body of `PATCH /api/v1/crons/{id}`: any fields of {@link CronInput}, with the same rules;
 * fields left out keep their value.
 */
export const CronPatch = z
  .object({
    webhook_url: CronInput.shape.webhook_url.optional(),
    cron_expression: CronInput.shape.cron_expression.optional(),
    method: HttpMethod.optional(),
    timezone: TimeZone.nullable().optional(),
    headers: WebhookHeaders.nullable().optional(),
    payload: JsonValue.nullable()
      .optional()
      .describe(PayloadInput.description ?? ''),
    retry_config: RetryConfigInput.nullable().optional(),
    timeout_ms: TimeoutMsInput.optional(),
    is_active: z.boolean().optional(),
    pause_after_failures: PauseAfterFailures.optional(),
  })
  .strict();
/** The body of `PATCH /api/v1/crons/{id}`, as sent. */
export type CronPatch = z.input<typeof CronPatch>;
/** The body of `PATCH /api/v1/crons/{id}`, parsed. */
export type ParsedCronPatch = z.output<typeof CronPatch>;

/** Query parameters of `GET /api/v1/crons`. */
export const CronListQuery = PaginationQuery.extend({
  is_active: BooleanParam.optional().describe('Only active (true) or inactive (false) crons.'),
}).strict();
/** Query parameters of `GET /api/v1/crons`, as sent. */
export type CronListQuery = z.input<typeof CronListQuery>;

/** The cron routes. */
export const cronsContract = c.router({
  list: {
    method: 'GET',
    path: '/crons',
    query: CronListQuery,
    responses: { 200: pageOf(Cron) },
    summary: 'List crons',
    description: 'Crons of the caller’s team, newest first.',
  },
  create: {
    method: 'POST',
    path: '/crons',
    headers: CreateHeaders,
    body: CronInput,
    responses: { 201: dataOf(Cron), 403: ErrorBody, ...idempotencyResponses },
    summary: 'Create a cron',
    description:
      'Creates a recurring webhook. Its upcoming occurrences appear as pending events. An active cron beyond the team’s limit of active crons (1,000 by default) is refused with 403 QUOTA_EXCEEDED; a payload over 64 KiB as JSON, headers over 16 KiB together, or a schedule firing more often than the team’s shortest interval (1 s by default) with 400 VALIDATION_ERROR.',
  },
  get: {
    method: 'GET',
    path: '/crons/:id',
    pathParams: IdParams,
    responses: { 200: dataOf(Cron) },
    summary: 'Get a cron',
    description: 'One cron of the caller’s team; another team’s cron is answered 404 NOT_FOUND.',
  },
  update: {
    method: 'PUT',
    path: '/crons/:id',
    pathParams: IdParams,
    body: CronInput,
    responses: { 200: dataOf(Cron), 403: ErrorBody },
    summary: 'Replace a cron',
    description:
      'Full replacement: omitted optional fields take their defaults. When the schedule (cron_expression, timezone), the request (webhook_url, method, headers, payload, retry_config) or is_active changes, deletes the cron’s pending events and generates new ones from the new definition; otherwise its pending occurrences, retries and manual runs are left as they are. Switching an inactive cron on beyond the team’s limit of active crons is refused with 403 QUOTA_EXCEEDED.',
  },
  patch: {
    method: 'PATCH',
    path: '/crons/:id',
    pathParams: IdParams,
    body: CronPatch,
    responses: { 200: dataOf(Cron), 403: ErrorBody },
    summary: 'Change some fields of a cron',
    description:
      'Partial update: fields left out keep their value, the others follow the rules of PUT. When the schedule, the request or is_active changes, the cron’s pending events are replaced as on PUT (setting is_active to false deletes them; back to true resumes from the next occurrence); a change of pause_after_failures alone leaves them as they are.',
  },
  trigger: {
    method: 'POST',
    path: '/crons/:id/trigger',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 201: dataOf(Event), 403: ErrorBody },
    summary: 'Run a cron now',
    description:
      'Creates one event from the cron’s current definition, due now, with cron_id set. The schedule is not moved, and the event is delivered once even in the second of a scheduled occurrence. Allowed on an inactive cron too. It counts against the team’s pending events and pending bytes like a created event: refused with 403 QUOTA_EXCEEDED when either is full.',
  },
  delete: {
    method: 'DELETE',
    path: '/crons/:id',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 200: DeleteResult },
    summary: 'Delete a cron',
    description: 'Deletes the cron and every event it created.',
  },
});
