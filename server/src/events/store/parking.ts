import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';

/**
 * Queue rows held back from claims while their destination cannot take the team's calls (the
 * destination's state is `destinations`', read and, for a probe, moved here in the same statement). A claim
 * parks the due rows of a held destination (`parked_until`: the end of its Retry-After, or
 * 'infinity' while it is paused or its circuit open), and the claims' indexes leave parked rows out,
 * so a destination's waiting events cost the claims nothing; these statements release them.
 */

/** The destinations a claim holds back, with until when (the SQL of a CTE named `held`). */
export const HELD_DESTINATIONS = `held as (
    select d.team_id, d.origin, d.probe_event_id,
           case when d.paused or d.circuit <> 'closed' then 'infinity'::timestamptz else d.retry_after_until end
             as until
    from destinations d
    where (d.paused or d.circuit <> 'closed' or d.retry_after_until is not null)
      and (d.paused or d.circuit <> 'closed' or d.retry_after_until > clock_timestamp())
  )`;

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

/** A probe whose event went without a recorded call (deleted, missed) is given up after this. */
const PROBE_GIVEN_UP_AFTER = "interval '5 minutes'";

/**
 * The reconcile's part: releases rows whose Retry-After ended; lets one call probe each open
 * circuit whose cool-down ended (its oldest held event, so a circuit with nothing waiting stays open
 * until an event of it is held); and re-opens a half-open circuit whose probe was lost. Returns the
 * rows released.
 */
export async function releaseDestinations(em: EntityManager): Promise<number> {
  const [expired] = await rawQuery<{ n: string }>(
    em,
    `with expired as (
       -- Rows others hold are released by the next reconcile: it never waits for a lock.
       select event_id from event_queue where parked_until <= clock_timestamp() for update skip locked
     ), released as (
       update event_queue q set parked_until = null from expired e where q.event_id = e.event_id returning 1
     ) select count(*) as n from released`,
  );
  const [probes] = await rawQuery<{ n: string }>(
    em,
    `with cooled as (
       select team_id, origin from destinations
       where circuit = 'open' and open_until <= clock_timestamp()
       for update skip locked
     ), probe as (
       select distinct on (q.team_id, q.destination) q.event_id, q.team_id, q.destination
       from event_queue q join cooled c on c.team_id = q.team_id and c.origin = q.destination
       where q.parked_until is not null and q.lease_token is null
       order by q.team_id, q.destination, q.scheduled_at
     ), probing as (
       update destinations d set circuit = 'half_open', probe_event_id = p.event_id, updated_at = clock_timestamp()
       from probe p where d.team_id = p.team_id and d.origin = p.destination
     ), released as (
       update event_queue q set parked_until = null from probe p where q.event_id = p.event_id returning 1
     ) select count(*) as n from released`,
  );
  await rawQuery(
    em,
    `update destinations d set circuit = 'open', open_until = clock_timestamp(), probe_event_id = null,
                               updated_at = clock_timestamp()
     where d.circuit = 'half_open' and d.updated_at < clock_timestamp() - ${PROBE_GIVEN_UP_AFTER}
       and not exists (select 1 from event_queue q where q.event_id = d.probe_event_id)`,
  );
  return Number(expired?.n ?? 0) + Number(probes?.n ?? 0);
}
