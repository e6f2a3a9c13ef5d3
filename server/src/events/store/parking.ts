import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';

/**
 * Queue rows held back from claims while their destination cannot take the team's calls (the
 * destination's state is in `destinations`, which the claim and the reconcile read in the same
 * statement: scheduler-store/claims.ts and destination-reconcile.ts). A claim
 * parks the due rows of a held destination (`parked_until`: the end of its Retry-After, or
 * 'infinity' while it is paused or its circuit open), and the claims' indexes leave parked rows out,
 * so a destination's waiting events cost the claims nothing; these statements release them.
 */

/** The team's calls in flight per destination (at most the calls in flight are read). */
export async function inFlightByDestination(em: EntityManager, teamId: string): Promise<Map<string, number>> {
  const rows = await rawQuery<{ origin: string; n: string }>(
    em,
    `select destination as origin, count(*) as n from event_queue
     where team_id = $1 and lease_token is not null group by destination`,
    [teamId],
  );
  return new Map(rows.map((row) => [row.origin, Number(row.n)]));
}

/** Releases the rows held for the team's pause or open circuit at `origin` (a resume, a closed circuit). */
export async function releaseHeld(tx: EntityManager, teamId: string, origin: string): Promise<void> {
  await rawQuery(
    tx,
    `update event_queue set parked_until = null
     where team_id = $1 and destination = $2 and parked_until = 'infinity'`,
    [teamId, origin],
  );
}

/** Whether the event `eventId` still waits in the queue (a condition). */
export const queued = (eventId: string): string =>
  `exists (select 1 from event_queue q where q.event_id = ${eventId})`;

/** Releases the rows whose Retry-After ended; returns how many. */
export async function releaseExpired(em: EntityManager): Promise<number> {
  const [expired] = await rawQuery<{ n: string }>(
    em,
    `with expired as (
       -- Rows others hold are released by the next reconcile: it never waits for a lock.
       select event_id from event_queue where parked_until <= clock_timestamp() for update skip locked
     ), released as (
       update event_queue q set parked_until = null from expired e where q.event_id = e.event_id returning 1
     ) select count(*) as n from released`,
  );
  return Number(expired?.n ?? 0);
}

/**
 * When the first Retry-After still running of a parked row ends (a scalar subquery; null if none).
 * 'infinity' (paused, circuit open) is no end: PostgreSQL 15 cannot subtract it from a time. `now()`,
 * not `clock_timestamp()`, so that both bounds limit the index's range (a volatile one is a filter).
 */
export const NEXT_PARKED_END = `(select parked_until from event_queue
     where parked_until > now() and parked_until < 'infinity' order by parked_until limit 1)`;

/**
 * CTEs that release, for each circuit of the CTE `cooled` (team_id, origin), its oldest held event
 * as the circuit's probe: `probe` (event_id, team_id, destination) and `released`, a row each.
 */
export const PROBES = `probe as (
       select distinct on (q.team_id, q.destination) q.event_id, q.team_id, q.destination
       from event_queue q join cooled c on c.team_id = q.team_id and c.origin = q.destination
       where q.parked_until is not null and q.lease_token is null
       order by q.team_id, q.destination, q.scheduled_at
     ), released as (
       update event_queue q set parked_until = null from probe p where q.event_id = p.event_id returning 1
     )`;
