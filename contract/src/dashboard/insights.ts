import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TimeZone, Timestamp, Uuid, dataOf } from '../common.js';
import { Event } from '../events.js';
import { TeamParams } from './common.js';

const c = initContract();

/** Most occurrences one preview computes. */
export const MAX_PREVIEW_COUNT = 20;

/** Query parameters of the cron preview. */
export const CronPreviewQuery = z
  .object({
    cron_expression: z.string().min(1, 'cron_expression is required').max(256),
    timezone: TimeZone.optional().describe('IANA time zone the schedule is read in; omitted means UTC.'),
    count: z
      .string()
      .regex(/^\d+$/, 'count must be a positive integer')
      .transform(Number)
      .pipe(z.number().int().min(1).max(MAX_PREVIEW_COUNT))
      .default('5')
      .describe(`How many occurrences, 1–${MAX_PREVIEW_COUNT}.`),
  })
  .strict();
/** Query parameters of the cron preview, as sent. */
export type CronPreviewQuery = z.input<typeof CronPreviewQuery>;

/** The next occurrences of a schedule, computed by the scheduler's own cron arithmetic. */
export const CronPreview = z.object({
  timezone: z.string().describe('The time zone the occurrences were computed in (UTC when none was given).'),
  occurrences: z.array(Timestamp),
  description: z
    .string()
    .nullable()
    .describe('The schedule in plain English (`At 09:00, Monday through Friday`), times in its zone.'),
});
/** The next occurrences of a schedule. */
export type CronPreview = z.infer<typeof CronPreview>;

/** What the dashboard shows that the public API has no route for. */
export const insightsContract = c.router({
  cronPreview: {
    method: 'GET',
    path: '/cron-preview',
    query: CronPreviewQuery,
    responses: { 200: dataOf(CronPreview) },
    summary: 'Preview a schedule',
    description:
      'The next occurrences of a cron expression in a time zone, DST rules included; an invalid expression is a VALIDATION_ERROR on cron_expression.',
  },
  attempts: {
    method: 'GET',
    path: '/teams/:teamId/events/:eventId/attempts',
    pathParams: TeamParams.extend({ eventId: Uuid.describe('The event id, original or retry.') }),
    responses: { 200: dataOf(z.array(Event)) },
    summary: 'Attempts of a delivery',
    description: 'The original event and its retry attempts, first attempt first.',
  },
});
