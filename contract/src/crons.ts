import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  BooleanParam,
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
  Uuid,
  WebhookHeaders,
  WebhookUrl,
  dataOf,
  pageOf,
} from './common.js';

const c = initContract();

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
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  team_id: Uuid,
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
    is_active: z.boolean().default(true),
  })
  .strict();
/** The body of `POST` and `PUT` on crons, as sent. */
export type CronInput = z.input<typeof CronInput>;
/** The body of `POST` and `PUT` on crons, with defaults applied. */
export type ParsedCronInput = z.output<typeof CronInput>;

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
    body: CronInput,
    responses: { 201: dataOf(Cron) },
    summary: 'Create a cron',
    description: 'Creates a recurring webhook. Its upcoming occurrences appear as pending events.',
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
    responses: { 200: dataOf(Cron) },
    summary: 'Replace a cron',
    description:
      'Full replacement: omitted optional fields take their defaults. Deletes the cron’s pending events and generates new ones from the new definition.',
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
