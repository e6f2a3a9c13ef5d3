import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type DeliveriesOverview,
  type DeliveryFigures,
  MAX_WAITING_COUNTED,
  type OverviewWindow,
  type UpcomingOverview,
} from '@webhook-scheduler/contract';
import { type MinuteOccurrences, countPerMinute, minuteOccurrences } from '@webhook-scheduler/scheduler';
import { type ActiveSchedule, activeSchedules } from '../crons/cron-schedules.js';
import { queueLoad } from '../events/store/queue-load.js';
import {
  LATENESS_RELATIVE_ERROR,
  type LatenessHistogram,
  latenessQuantile,
  mergeHistograms,
} from '../lateness/lateness.rules.js';
import { UPCOMING_MS, WINDOWS, addCounts, binStarts, minuteStarts } from './overview.rules.js';
import { deliveryBins } from './store/delivery-minutes.js';

function figures(
  calls: { succeeded: number; retrying: number; failed: number },
  histogram: LatenessHistogram,
): DeliveryFigures {
  return {
    succeeded: calls.succeeded,
    retrying: calls.retrying,
    failed: calls.failed,
    lateness_p50_ms: latenessQuantile(histogram, 0.5),
    lateness_p99_ms: latenessQuantile(histogram, 0.99),
  };
}

/** The team's calls over `window` ending now, every bin present, from the per-minute rollup. */
export async function deliveriesOverview(
  em: EntityManager,
  teamId: string,
  window: OverviewWindow,
  now: Date,
): Promise<DeliveriesOverview> {
  const { binSeconds } = WINDOWS[window];
  const starts = binStarts(window, now);
  const from = starts[0] ?? now;
  const rows = await deliveryBins(em, teamId, { from, to: now, binSeconds });
  const byStart = new Map(rows.map((row) => [row.bin.getTime(), row]));
  const empty = { succeeded: 0, retrying: 0, failed: 0, histogram: new Map<number, number>() };
  const bins = starts.map((start) => {
    const row = byStart.get(start.getTime()) ?? empty;
    return { at: start.toISOString(), ...figures(row, row.histogram) };
  });
  const sum = (key: 'succeeded' | 'retrying' | 'failed') => rows.reduce((total, row) => total + row[key], 0);
  const totals = figures(
    { succeeded: sum('succeeded'), retrying: sum('retrying'), failed: sum('failed') },
    mergeHistograms(rows.map((row) => row.histogram)),
  );
  return {
    window,
    bin_seconds: binSeconds,
    from: from.toISOString(),
    to: now.toISOString(),
    bins,
    totals,
    lateness_relative_error: Math.round(LATENESS_RELATIVE_ERROR * 10_000) / 10_000,
  };
}

/**
 * The runs of the crons in (now, until] that are not pending events yet (those up to a cron's
 * `materialized_until` are), per minute. Crons of the same schedule walk its minutes once.
 */
function cronRunsPerMinute(schedules: ActiveSchedule[], now: Date, until: Date): Map<number, number> {
  const walked = new Map<string, MinuteOccurrences | undefined>();
  const counts = new Map<number, number>();
  for (const schedule of schedules) {
    const key = `${schedule.timezone ?? ''} ${schedule.expression}`;
    if (!walked.has(key)) {
      // A schedule stored before a rule tightened may no longer parse: it counts nothing.
      let minutes: MinuteOccurrences | undefined;
      try {
        minutes = minuteOccurrences(schedule.expression, schedule.timezone, now, until);
      } catch {
        minutes = undefined;
      }
      walked.set(key, minutes);
    }
    const minutes = walked.get(key);
    if (!minutes) continue;
    const after =
      schedule.materializedUntil && schedule.materializedUntil > now ? schedule.materializedUntil : now;
    addCounts(counts, countPerMinute(minutes, after, until));
  }
  return counts;
}

/** What the team's next hour holds: pending events and cron runs per minute, what waits, what runs. */
export async function upcomingOverview(
  em: EntityManager,
  teamId: string,
  now: Date,
): Promise<UpcomingOverview> {
  const until = new Date(now.getTime() + UPCOMING_MS);
  const [queue, schedules] = await Promise.all([
    queueLoad(em, teamId, { from: now, to: until, waitingCap: MAX_WAITING_COUNTED + 1 }),
    activeSchedules(em.fork(), teamId),
  ]);
  const cronRuns = cronRunsPerMinute(schedules, now, until);
  const minutes = minuteStarts(now, until).map((start) => ({
    at: start.toISOString(),
    events: queue.perMinute.get(start.getTime()) ?? 0,
    cron_runs: cronRuns.get(start.getTime()) ?? 0,
  }));
  return {
    from: now.toISOString(),
    to: until.toISOString(),
    minutes,
    events: minutes.reduce((total, minute) => total + minute.events, 0),
    cron_runs: minutes.reduce((total, minute) => total + minute.cron_runs, 0),
    waiting: Math.min(queue.waiting, MAX_WAITING_COUNTED),
    waiting_capped: queue.waiting > MAX_WAITING_COUNTED,
    in_flight: queue.inFlight,
  };
}
