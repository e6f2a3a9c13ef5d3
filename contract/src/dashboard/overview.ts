import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, dataOf } from '../common.js';
import { TeamParams } from './common.js';

const c = initContract();

/** The windows the Overview shows a team's deliveries over. */
export const OverviewWindow = z.enum(['1h', '24h', '7d']);
/** A window of the Overview. */
export type OverviewWindow = z.infer<typeof OverviewWindow>;

/** Query parameters of the deliveries overview. */
export const DeliveriesQuery = z
  .object({
    window: OverviewWindow.default('1h').describe(
      'The last hour (bins of 1 min), 24 hours (15 min) or 7 days (2 h).',
    ),
  })
  .strict();
/** Query parameters of the deliveries overview, as sent. */
export type DeliveriesQuery = z.input<typeof DeliveriesQuery>;

const Calls = z.number().int().min(0);
const LatenessMs = z
  .number()
  .min(0)
  .nullable()
  .describe('Milliseconds from scheduled_at to the call’s start; null without a call. 0 means under 1 ms.');

/** Calls by outcome and their lateness, over one bin or a whole window. */
export const DeliveryFigures = z.object({
  succeeded: Calls.describe('Calls answered with a 2xx.'),
  retrying: Calls.describe('Failed calls after which a retry was scheduled.'),
  failed: Calls.describe('Failed calls that ended their delivery (no retry left, or none allowed).'),
  lateness_p50_ms: LatenessMs,
  lateness_p99_ms: LatenessMs,
});
/** Calls by outcome and their lateness. */
export type DeliveryFigures = z.infer<typeof DeliveryFigures>;

/** One bin of the deliveries overview. */
export const DeliveryBin = DeliveryFigures.extend({ at: Timestamp.describe('The bin’s start.') });
/** One bin of the deliveries overview. */
export type DeliveryBin = z.infer<typeof DeliveryBin>;

/** A team's calls over a window, per bin and in total. */
export const DeliveriesOverview = z.object({
  window: OverviewWindow,
  bin_seconds: z.number().int().describe('The length of each bin.'),
  from: Timestamp.describe('The first bin’s start.'),
  to: Timestamp.describe('The end of the window: now.'),
  bins: z.array(DeliveryBin).describe('Every bin of the window in time order, those without a call too.'),
  totals: DeliveryFigures,
  lateness_relative_error: z
    .number()
    .describe(
      'Percentiles come from a log-scale histogram: above 1 ms each is within this fraction of the true value.',
    ),
});
/** A team's calls over a window. */
export type DeliveriesOverview = z.infer<typeof DeliveriesOverview>;

/** One minute of the next hour. */
export const UpcomingMinute = z.object({
  at: Timestamp.describe('The minute’s start.'),
  events: Calls.describe(
    'Pending events due in this minute: one-time events, retries, and cron runs already created.',
  ),
  cron_runs: Calls.describe('Runs of the team’s active crons in this minute not created as events yet.'),
});
/** One minute of the next hour. */
export type UpcomingMinute = z.infer<typeof UpcomingMinute>;

/** Most overdue events counted; beyond it the Overview says "more than". */
export const MAX_WAITING_COUNTED = 10_000;

/** What the team's next hour holds, and what is waiting or in flight now. */
export const UpcomingOverview = z.object({
  from: Timestamp.describe('Now.'),
  to: Timestamp.describe('An hour from now.'),
  minutes: z.array(UpcomingMinute).describe('Every minute of the next hour in time order, empty ones too.'),
  events: Calls.describe('Pending events due in the next hour.'),
  cron_runs: Calls.describe('Cron runs in the next hour not created as events yet.'),
  waiting: Calls.describe(
    `Pending events already due, waiting for their turn (counted up to ${MAX_WAITING_COUNTED}).`,
  ),
  waiting_capped: z.boolean().describe('Whether more events than `waiting` are due.'),
  in_flight: Calls.describe('Calls in flight now.'),
});
/** What the team's next hour holds. */
export type UpcomingOverview = z.infer<typeof UpcomingOverview>;

/** The figures of the dashboard's Overview page: a team's deliveries at a glance. */
export const overviewContract = c.router({
  deliveries: {
    method: 'GET',
    path: '/teams/:teamId/overview/deliveries',
    pathParams: TeamParams,
    query: DeliveriesQuery,
    responses: { 200: dataOf(DeliveriesOverview) },
    summary: 'Deliveries over a window',
    description:
      'The team’s calls per bin by outcome, with lateness p50 and p99, from a per-minute rollup kept 8 days.',
  },
  upcoming: {
    method: 'GET',
    path: '/teams/:teamId/overview/upcoming',
    pathParams: TeamParams,
    responses: { 200: dataOf(UpcomingOverview) },
    summary: 'The next hour’s load',
    description:
      'Pending events and cron runs per minute over the next hour, the events already due and the calls in flight.',
  },
});
