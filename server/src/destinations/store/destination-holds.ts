/**
 * The destinations' part of the claims and of the reconcile (scheduler-store/claims.ts and
 * destination-reconcile.ts): which destinations hold a team's calls back, and their circuits' probes.
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

/**
 * Whether the team's last recorded call to the origin was answered: a lateral subquery `alias` with
 * the column `answered` (no row for a destination never recorded). One primary-key probe per pair,
 * kept a probe by its `limit`, which the planner cannot merge into a join: as a plain condition it
 * hashed the whole table for the few pairs of a claim, in every slot claim (bench/scale: 2,000-4,000
 * rows read, growing with the destinations).
 */
export const lastAnswer = (teamId: string, origin: string, alias: string): string =>
  `lateral (select d.last_call_at is not null and d.consecutive_failures = 0 as answered
            from destinations d where d.team_id = ${teamId} and d.origin = ${origin}
            limit 1) as ${alias}`;

/** The open circuits whose cool-down ended (the SQL of a CTE named `cooled`; rows others hold skipped). */
export const COOLED_CIRCUITS = `cooled as (
       select team_id, origin from destinations
       where circuit = 'open' and open_until <= clock_timestamp()
       for update skip locked
     )`;

/** When the first open circuit's cool-down still running ends (a scalar subquery; null if none). */
export const NEXT_COOL_DOWN_END = `(select min(open_until) from destinations
     where circuit = 'open' and open_until > now())`;

/**
 * When the first Retry-After still running ends (a scalar subquery; null if none): the events a
 * claim parks for it later are parked until then.
 */
export const NEXT_RETRY_AFTER_END = `(select min(retry_after_until) from destinations
     where retry_after_until > now())`;

/** Makes the circuits of the CTE `probe` (team_id, destination, event_id) half-open, probing with that event. */
export const PROBING = `probing as (
       update destinations d set circuit = 'half_open', probe_event_id = p.event_id, updated_at = clock_timestamp()
       from probe p where d.team_id = p.team_id and d.origin = p.destination
     )`;

/** A probe whose event went without a recorded call (deleted, missed) is given up after this. */
const PROBE_GIVEN_UP_AFTER = "interval '5 minutes'";

/** Re-opens the half-open circuits whose probe was lost: `queued(event)` says whether an event still waits. */
export const reopenLostProbes = (queued: (eventId: string) => string): string =>
  `update destinations d set circuit = 'open', open_until = clock_timestamp(), probe_event_id = null,
                               updated_at = clock_timestamp()
     where d.circuit = 'half_open' and d.updated_at < clock_timestamp() - ${PROBE_GIVEN_UP_AFTER}
       and not ${queued('d.probe_event_id')}`;
