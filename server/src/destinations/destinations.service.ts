import type { EntityManager } from '@mikro-orm/postgresql';
import type { DestinationPatch, DestinationSort } from '@webhook-scheduler/contract';
import { NotFoundError, ValidationError } from '../errors.js';
import { type Page, assertPageInRange } from '../shared/page.js';
import { originOf } from '../shared/origin.rules.js';
import { maxInFlightIssues } from './destination.rules.js';
import { type DestinationListing, findDestination, listDestinations } from './store/destination-queries.js';
import { saveDestinationSettings } from './store/destination-settings.js';
import { inFlightByDestination, releaseHeld } from '../events/store/parking.js';

type ListQuery = { page: number; limit: number; sort?: DestinationSort | undefined };

/** A destination and the team's calls to it in flight. */
export interface ListedDestination {
  row: DestinationListing;
  inFlight: number;
}

async function withCallsInFlight(
  em: EntityManager,
  teamId: string,
  rows: DestinationListing[],
): Promise<ListedDestination[]> {
  const inFlight = rows.length === 0 ? new Map<string, number>() : await inFlightByDestination(em, teamId);
  return rows.map((row) => ({ row, inFlight: inFlight.get(row.origin) ?? 0 }));
}

/** The origin a path names, or a 400 naming `origin`. */
function requireOrigin(raw: string): string {
  const read = originOf(raw);
  if ('issue' in read) throw new ValidationError([read.issue]);
  return read.origin;
}

export async function listTeamDestinations(
  em: EntityManager,
  teamId: string,
  query: ListQuery,
): Promise<Page<ListedDestination>> {
  const sort = query.sort ?? '-last_call_at';
  const { rows, total } = await listDestinations(em, teamId, { ...query, sort });
  assertPageInRange(query, total);
  return { items: await withCallsInFlight(em, teamId, rows), total };
}

export async function getDestination(
  em: EntityManager,
  teamId: string,
  raw: string,
): Promise<ListedDestination> {
  const found = await findDestination(em, teamId, requireOrigin(raw));
  if (!found) throw new NotFoundError('Destination');
  const [listed] = await withCallsInFlight(em, teamId, [found]);
  if (!listed) throw new Error('a destination found was lost');
  return listed;
}

/** Sets the team's settings for an origin (its first event may come later) and answers it as it is now. */
export async function patchDestination(
  em: EntityManager,
  teamId: string,
  raw: string,
  patch: DestinationPatch,
  now: Date,
  serviceMaxInFlight: number,
): Promise<ListedDestination> {
  const origin = requireOrigin(raw);
  const issues = maxInFlightIssues(patch.max_in_flight, serviceMaxInFlight);
  if (issues.length > 0) throw new ValidationError(issues);
  await em.transactional(async (tx) => {
    const change = {
      rateLimit: patch.rate_limit,
      maxInFlight: patch.max_in_flight,
      // null clears the pause, as it clears the other settings.
      paused: patch.paused === null ? false : patch.paused,
    };
    // Resumed: its held events are claimed again, in the order they were due.
    if (await saveDestinationSettings(tx, teamId, origin, change, now)) await releaseHeld(tx, teamId, origin);
  });
  return getDestination(em, teamId, origin);
}
