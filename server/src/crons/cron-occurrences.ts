import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  type EventRequest,
  type Timers,
  newEventId,
  nextOccurrences,
  requestOf,
} from '@webhook-scheduler/scheduler';
import { rawQuery } from '../shared/raw-query.js';
import { type PendingEvent, insertPendingEvents } from '../events/store/pending-events.js';
import { CRON_COLUMNS, type Cron, type CronRecord, toCron } from './cron-store.js';
import { topUpSpreadMs } from './top-up-spread.rules.js';

/** The fields of a cron that its occurrences need: its schedule, how far it is materialized, and what its events copy. */
export type CronDefinition = Pick<
  Cron,
  'id' | 'teamId' | 'cronExpression' | 'timezone' | 'materializedUntil' | keyof EventRequest
>;

/** At most this many events are materialized for one cron at a time. */
const MAX_MATERIALIZED = 100;
/** A cron with no computable occurrence (e.g. one that only falls in DST gaps) is looked at again after this. */
const RETRY_EMPTY_AFTER_MS = 60 * 60 * 1000;

/**
 * The cron's upcoming occurrences as pending events (within `horizonMs`, at least one, never before
 * `now`), the last one's time, and over how long before it the cron's next top-up is spread.
 */
function occurrencesOf(
  cron: CronDefinition,
  now: Date,
  horizonMs: number,
): { events: PendingEvent[]; until: Date; spreadMs: number } {
  const materialized = cron.materializedUntil && cron.materializedUntil > now ? cron.materializedUntil : null;
  const after = materialized ?? now;
  let times: Date[] = [];
  try {
    times = nextOccurrences(cron.cronExpression, cron.timezone, after, {
      until: new Date(now.getTime() + horizonMs),
      min: 1,
      max: MAX_MATERIALIZED,
    });
  } catch {
    // An expression that no longer parses (e.g. stored before a grammar change) is skipped the same way.
  }
  const events = times.map((scheduledAt) => ({
    id: newEventId(),
    teamId: cron.teamId,
    cronId: cron.id,
    retryOf: null,
    attempt: 0,
    scheduledAt,
    ...requestOf(cron),
  }));
  const last = times.at(-1);
  const previous = times.at(-2) ?? materialized;
  const gapMs = last && previous ? last.getTime() - previous.getTime() : null;
  return {
    events,
    until: last ?? new Date(now.getTime() + RETRY_EMPTY_AFTER_MS),
    spreadMs: topUpSpreadMs(gapMs, horizonMs),
  };
}

/**
 * Inserts the crons' upcoming occurrences as pending events (no back-fill) and moves their
 * `materialized_until` and `top_up_spread`. The caller holds the cron rows locked; an occurrence
 * that exists already is skipped. Returns how many occurrences there were.
 */
export async function materializeOccurrences(
  tx: EntityManager,
  timers: Timers,
  crons: CronDefinition[],
  now: Date,
  horizonMs: number,
): Promise<number> {
  if (crons.length === 0) return 0;
  const planned = crons.map((cron) => ({ cron, ...occurrencesOf(cron, now, horizonMs) }));
  await rawQuery(
    tx,
    `update crons c set materialized_until = m.until, top_up_spread = m.spread_ms * interval '1 millisecond'
     from unnest($1::uuid[], $2::timestamptz[], $3::int[]) as m(id, until, spread_ms) where c.id = m.id`,
    [
      planned.map(({ cron }) => cron.id),
      planned.map(({ until }) => until),
      planned.map(({ spreadMs }) => spreadMs),
    ],
  );
  const events = planned.flatMap((plan) => plan.events);
  await insertPendingEvents(tx, timers, events, now);
  return events.length;
}

/**
 * When a cron runs out, as the top-up reads crons: its `materialized_until` less a fraction of its
 * `top_up_spread` fixed by its id (the expression of crons_top_up_gap_idx; in UTC, as an index
 * expression takes no time zone, on which timestamptz arithmetic depends). Crons of one schedule are
 * topped up across that spread ({@link topUpSpreadMs}), not in one reconcile: each top-up rewrites
 * its cron's row in full, and 1,000 at once left a quarter of `crons` dead until the next vacuum
 * (bench/README.md, bench/scale).
 */
const RUNS_OUT = `(coalesce(materialized_until, '-infinity'::timestamptz) at time zone 'UTC' - (hashtext(id::text) & 1023) * top_up_spread / 1024)`;

/**
 * Up to `limit` active crons that run out ({@link RUNS_OUT}) within `horizonMs`, never materialized
 * first, locked (`for no key update`); crons another transaction holds are skipped. A range of
 * crons_top_up_gap_idx, read in its order (a bound from clock_timestamp(), volatile, could not be one).
 */
export async function cronsRunningOut(
  tx: EntityManager,
  horizonMs: number,
  limit: number,
): Promise<CronDefinition[]> {
  const rows = await rawQuery<CronRecord>(
    tx,
    `select ${CRON_COLUMNS}
     from crons
     where is_active and ${RUNS_OUT} < (statement_timestamp() + $1 * interval '1 millisecond') at time zone 'UTC'
     order by ${RUNS_OUT}
     limit $2
     for no key update skip locked`,
    [horizonMs, limit],
  );
  return rows.map(toCron);
}

/**
 * Materializes the upcoming occurrences of up to `limit` active crons whose horizon runs out, in one
 * transaction; returns how many there were.
 */
export async function topUpCrons(
  orm: MikroORM,
  timers: Timers,
  { horizonMs, limit }: { horizonMs: number; limit: number },
): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const crons = await cronsRunningOut(tx, horizonMs, limit);
    return materializeOccurrences(tx, timers, crons, new Date(), horizonMs);
  });
}
