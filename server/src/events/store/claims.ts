import type { EntityManager } from '@mikro-orm/postgresql';
import { type PreparedCall, asDate, preparedQuery, unseenByPlanner } from '../../shared/raw-query.js';
import { callColumns, joinTeam } from '../../teams/team-fragments.js';
import { ATTEMPT_COLUMNS } from './attempt-row.js';
import { DATABASE_NOW } from './database-clock.js';

/**
 * The events' part of the scheduler's claims (scheduler-store/claims.ts composes the statement):
 * the due queue rows a claim chooses among, the rows it parks and leases, and what it returns of
 * each. The wide `events` row is only read. Also the timer's reads of what falls due when.
 */

/**
 * A queue row `q`, found by its id, still free to claim: neither leased nor parked. Not spelled
 * `is null`: that matches the predicate of the claims' partial indexes, and with statistics taken
 * while the queue was nearly empty the planner read one of them whole instead of probing the primary
 * key (a claim of 37 read 20,000 entries: bench/README.md, 2026-11-26). `num_nulls` hides it.
 */
export const FREE = 'num_nulls(q.lease_token, q.parked_until) = 2';

/**
 * CTEs that park the candidates of a destination the CTE `held` holds back: their rows leave the
 * claims' indexes until it can take calls. Like the claim, skipping rows others hold: a claim never
 * waits for a lock.
 */
export const PARK_HELD = `to_park as (
      select q.event_id, h.until from event_queue q
      join candidates c on c.id = q.event_id
      join held h on h.team_id = c.team_id and h.origin = c.destination
      where c.id is distinct from h.probe_event_id and ${FREE}
      for update of q skip locked
    ), parking as (
      update event_queue q set parked_until = p.until from to_park p where q.event_id = p.event_id
    )`;

/**
 * CTEs that lease the rows of the CTE `chosen` still free ($2 lease token, $3 lease ms, $4 owner):
 * `claimed`, the queue rows leased.
 */
export const LEASE_CHOSEN = `due as (
      -- By the primary key (the id arrays): the row estimates of the steps above are guesses.
      select q.event_id from event_queue q
      where q.event_id = any(array(select id from chosen)) and ${FREE}
      for update of q skip locked
    ), claimed as (
      update event_queue q
      set lease_token = $2, lease_owner = $4, claim_count = q.claim_count + 1,
          lease_expires_at = clock_timestamp() + $3 * interval '1 millisecond'
      where q.event_id = any(array(select event_id from due))
      returning q.*
    )`;

/**
 * The rows of the CTE `claimed` as attempts (attempt-row.ts): the event, its lease, the team's
 * secrets. In time order only: ordering those due at the same time in the claim's turns (a second
 * reference to `chosen`) cost PostgreSQL 18 % more CPU per delivery (bench/README.md, 2026-11-28).
 */
export const CLAIMED_ATTEMPTS = `select ${ATTEMPT_COLUMNS}, ${callColumns('t')}
  from claimed q join events e on e.id = q.event_id ${joinTeam('t', 'e.team_id')} order by e.scheduled_at`;

/** How far a slot claim looks past the events it may take, for those of teams still with room. */
const SLOT_LOOKAHEAD = 4;

/**
 * The CTE `candidates` of a slot claim ($13 from, $14 before): its rows due now or within $15 ms, in
 * time order. Teams at their share, destinations at theirs and teams holding all their places at a
 * destination (the claim's CTEs `team_room`, `destination_room`, `pair_room`; their refills, leased
 * ahead, are the backlog claim's) are skipped in the index scan: one team's backlog to an origin
 * cannot fill the look-ahead and hide the other teams' events due in the same slot. Each skip is a
 * hashed subplan (`not in`; no column is null), built once: as `not exists` over a CTE, each row read
 * scanned the CTE again (2,000 rows, each against every pair with calls in flight). The slot's bounds
 * and the look-ahead are {@link unseenByPlanner}, so that the claim is planned once per connection.
 */
export const SLOT_CANDIDATES = `candidates as (
    select q.event_id as id, q.team_id, q.scheduled_at, q.destination
    from event_queue q
    where lease_token is null and parked_until is null
      and scheduled_at >= ${unseenByPlanner('$13', 'timestamptz')} and scheduled_at < ${unseenByPlanner('$14', 'timestamptz')}
      and scheduled_at <= ${DATABASE_NOW} + $15 * interval '1 millisecond'
      and team_id not in (select team_id from team_room where room = 0)
      and destination not in (select origin from destination_room where room = 0)
      and (team_id, destination) not in (select team_id, origin from pair_room where free = 0)
    order by scheduled_at
    limit ${unseenByPlanner('$1', 'int')} * ${SLOT_LOOKAHEAD}
  )`;

/** Due by the backlog claim's reckoning: now by the database clock, or within $14 ms of it. */
const DUE_BY = `(${DATABASE_NOW} + $14 * interval '1 millisecond')`;

/**
 * A team's (`p.team_id`) oldest due rows from `from` on (and before `before`), up to its room in the
 * claim: one range of the team's due index, from `from` to what is due.
 * - The team is matched by `= any(array[…])`: with `=` it is a constant to the planner, and the due
 *   index of all teams has the order asked for too. With two teams in the statistics, the planner
 *   expected the team's rows early there, read it and filtered by team, and a team due behind
 *   another's backlog read all of it (20,000 entries; bench/README.md, bench/destinations, 2026-11-29).
 * - The bounds are on `scheduled_at` alone: bounds on `(team_id, scheduled_at)` beside the team's
 *   equality did not end the scan, and each claim read every due team's events to come (38,000
 *   pages a claim with 2M pending; bench/scale `catch-up`, 2026-11-30).
 */
const teamDue = (
  from: string,
  before?: string,
) => `select q.event_id as id, q.team_id, q.scheduled_at, q.destination
      from event_queue q
      where q.lease_token is null and q.parked_until is null and q.team_id = any(array[p.team_id])
        and q.scheduled_at >= ${from} and q.scheduled_at <= ${DUE_BY}
        ${before ? `and q.scheduled_at < ${before}` : ''}
      order by q.team_id, q.scheduled_at
      limit least(coalesce(r.room, $7), $1)`;

/**
 * The backlog claim's bounds ($13 from, $12 since schedulers served), {@link unseenByPlanner}: seen
 * as plain bounds, they made its plans for the values look 11 % cheaper than the generic plan.
 */
const FROM = unseenByPlanner('$13', 'timestamptz');
const SERVED_SINCE = unseenByPlanner('$12', 'timestamptz');

/** How many of the oldest due events a backlog claim reads to find the teams with any due. */
const DUE_SAMPLE = 100;

/**
 * The CTE `candidates` of a backlog claim. First the teams with events due: while fewer than 100
 * events are due, the teams of those (one range of the due index); else a loose index scan, one
 * probe per team with pending events, which also reads the team's earliest (the team's due index is
 * in time order within a team), keeping those whose earliest is due. Then of each such team the
 * oldest due events from $13 on (up to its room in the claim's `team_room`), those due since $12
 * (schedulers serving) before those due while none served, numbered in that order (a held
 * destination's apart). "Due" reaches $14 ms ahead: a slot's claim while the process is full claims
 * ahead (`DUE_BY`).
 *
 * Of those only the rows up to the $1-th in the order the claim chooses in (a team's turn, its room,
 * due while none served, time: the claim's `chosen`), counting only rows no share stops whatever
 * their rank (not a held destination's, nor one of a destination or a team's pair at no room), and
 * the held rows, which the claim parks. A row past it comes after $1 rows the claim takes unless a
 * share partly used stops them: except where such a share stops some, the claim takes the rows that
 * ranking every row would take. Ranking them all cost most of a claim: a claim of 20 among 100 due
 * teams ranked 2,000 rows (bench/README.md, 2026-12-01).
 */
export const BACKLOG_CANDIDATES = `due_sample as (
    select team_id from event_queue
    where lease_token is null and parked_until is null and scheduled_at <= ${DUE_BY}
    order by scheduled_at limit ${DUE_SAMPLE}
  ), pending_teams as (
    (select team_id, scheduled_at as earliest from event_queue
     where lease_token is null and parked_until is null
     order by team_id, scheduled_at limit 1)
    union all
    select n.team_id, n.scheduled_at from pending_teams p
    cross join lateral (
      select q.team_id, q.scheduled_at from event_queue q
      where q.lease_token is null and q.parked_until is null and q.team_id > p.team_id
      order by q.team_id, q.scheduled_at limit 1
    ) n
  ), due_teams as (
    select distinct team_id from due_sample where (select count(*) from due_sample) < ${DUE_SAMPLE}
    union all
    -- Only read when the sample is full: the condition is evaluated once, before the scan.
    select team_id from pending_teams
    where earliest <= ${DUE_BY} and (select count(*) from due_sample) = ${DUE_SAMPLE}
  ), team_due as (
    select c.*, c.team_rank - c.room as turn from due_teams p
    left join team_room r on r.team_id = p.team_id
    cross join lateral (
      select d.*, coalesce(r.room, $7) as room,
        row_number() over (partition by d.held order by d.due_while_down, d.scheduled_at) as team_rank
      from (
        select d.*, d.scheduled_at < $12::timestamptz as due_while_down,
          (d.team_id, d.destination) in (select team_id, origin from held)
            and (d.team_id, d.destination, d.id) not in (
              select team_id, origin, probe_event_id from held where probe_event_id is not null) as held
        from (
          (${teamDue(`greatest(${FROM}, ${SERVED_SINCE})`)})
          union all
          (${teamDue(FROM, SERVED_SINCE)})
          limit least(coalesce(r.room, $7), $1)
        ) d
      ) d
    ) c
  ), last_in_reach as (
    select turn, room, due_while_down, scheduled_at from team_due
    where not held
      and destination not in (select origin from destination_room where room = 0)
      and (team_id, destination) not in (select team_id, origin from pair_room where room = 0)
    order by turn, room desc, due_while_down, scheduled_at
    offset greatest($1 - 1, 0) limit 1
  ), candidates as (
    -- Held rows too: the claim parks them.
    select c.id, c.team_id, c.scheduled_at, c.destination from team_due c
    left join last_in_reach l on true
    where c.held or l.turn is null
       or (c.turn, -c.room, c.due_while_down, c.scheduled_at) <= (l.turn, -l.room, l.due_while_down, l.scheduled_at)
  )`;

const NEXT_DUE = `select min(scheduled_at) as next from event_queue
  where lease_token is null and parked_until is null and scheduled_at < $2
    and scheduled_at >= greatest($1::timestamptz, ${DATABASE_NOW} + $3 * interval '1 millisecond')`;

/**
 * When the next pending event of `[from, before)` falls due that is not due yet, nor within
 * `aheadMs` of it; or null.
 */
export async function nextDueAt(
  em: EntityManager,
  from: Date,
  before: Date,
  aheadMs = 0,
): Promise<Date | null> {
  const [row] = await preparedQuery<{ next: Date | string | null }>(em, NEXT_DUE, [from, before, aheadMs]);
  return row?.next ? asDate(row.next) : null;
}

/** {@link nextDueAt} of an empty range ({@link prepareOnEveryConnection}). */
export const nextDueOfNothing: PreparedCall = { sql: NEXT_DUE, params: [new Date(0), new Date(0), 0] };

/** The seconds (Unix) in which pending events not in flight fall due within `[from, before)`. */
export async function pendingSlots(em: EntityManager, from: Date, before: Date): Promise<number[]> {
  const rows = await preparedQuery<{ slot: string }>(
    em,
    `select distinct floor(extract(epoch from scheduled_at))::bigint as slot from event_queue
     where lease_token is null and parked_until is null and scheduled_at >= $1 and scheduled_at < $2`,
    [from, before],
  );
  return rows.map((row) => Number(row.slot));
}
