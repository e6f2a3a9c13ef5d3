import type { EntityManager } from '@mikro-orm/postgresql';
import {
  MAX_REPLAY_EVENTS,
  type ParsedEventReplayFilter,
  REPLAY_LISTED_EVENTS,
} from '@webhook-scheduler/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.js';
import { pendingQuotaOf, withinQuotas } from '../limits/quota-at-commit.js';
import { originOf } from '../shared/origin.rules.js';
import type { EventWriteDeps } from './events.service.js';
import { replayOf } from './manual-event.js';
import { replayRefusal } from './event.rules.js';
import type { EventRow } from './store/event-row.js';
import { type EventFilter, countEvents, findEvent, findEventsHeld } from './store/event-queries.js';
import { insertPendingEvents } from './store/pending-events.js';

/**
 * Schedules, due now, a new event with the definition of a finished one (`replay_of` = its id).
 * The source is held (`for key share`) until the replay commits, so a concurrent delete of it is
 * waited for and answered 404 instead of failing the insert.
 */
export async function replayEvent(
  em: EntityManager,
  teamId: string,
  id: string,
  now: Date,
  { scheduling, limits }: EventWriteDeps,
): Promise<EventRow> {
  const quota = pendingQuotaOf(teamId, await limits.forTeam(teamId));
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const found = await findEvent(tx, teamId, id, { lock: 'key share' });
      if (!found) throw new NotFoundError('Event');
      const refusal = replayRefusal(found);
      if (refusal) throw new BadRequestError(refusal.message, refusal.details);
      const [row] = await insertPendingEvents(tx, scheduling.timers, [replayOf(teamId, found, now)], now, {
        returnRows: true,
        quota,
      });
      if (!row) throw new Error('insert returned no row');
      return row;
    }),
  );
}

/** The team's finished original events a bulk replay's filter selects (another team's cron matches none). */
function replayFilter(teamId: string, filter: ParsedEventReplayFilter): EventFilter {
  let destination: string | undefined;
  if (filter.destination !== undefined) {
    const read = originOf(filter.destination, 'destination');
    if ('issue' in read) throw new ValidationError([read.issue]);
    destination = read.origin;
  }
  return {
    teamId,
    status: filter.status,
    cronId: filter.cron_id,
    destination,
    scheduledAfter: filter.scheduled_after === undefined ? undefined : new Date(filter.scheduled_after),
    scheduledBefore: filter.scheduled_before === undefined ? undefined : new Date(filter.scheduled_before),
    originals: true,
  };
}

/**
 * Replays every event the filter matches, each as {@link replayEvent} does, in one transaction
 * (the sources held meanwhile), all within the team's pending quotas checked at its commit, or none.
 * A retry attempt is not replayed: its original stands for the whole delivery. More matches than
 * {@link MAX_REPLAY_EVENTS} are refused with their count.
 */
export async function replayEvents(
  em: EntityManager,
  teamId: string,
  filter: ParsedEventReplayFilter,
  now: Date,
  { scheduling, limits }: EventWriteDeps,
): Promise<{ replayed: number; first: EventRow[] }> {
  const matching = replayFilter(teamId, filter);
  const quota = pendingQuotaOf(teamId, await limits.forTeam(teamId));
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const sources = await findEventsHeld(tx, matching, MAX_REPLAY_EVENTS + 1);
      if (sources.length > MAX_REPLAY_EVENTS) {
        const matched = await countEvents(tx, matching);
        throw new BadRequestError(
          `${matched} events match the filter; at most ${MAX_REPLAY_EVENTS} are replayed at once: narrow the filter (cron_id, destination, scheduled_after, scheduled_before)`,
          { matched, max: MAX_REPLAY_EVENTS },
        );
      }
      const replays = sources.map((source) => replayOf(teamId, source, now));
      const rows = await insertPendingEvents(tx, scheduling.timers, replays, now, {
        returnRows: true,
        quota,
      });
      if (rows.length !== replays.length) throw new Error('insert returned fewer rows than events');
      return { replayed: rows.length, first: rows.slice(0, REPLAY_LISTED_EVENTS) };
    }),
  );
}
