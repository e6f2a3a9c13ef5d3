import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClaimOptions, ClaimedAttempt } from '@webhook-scheduler/scheduler';
import { asDate, preparedQuery } from '../../shared/raw-query.js';
import { ATTEMPT_COLUMNS, type AttemptRow, TEAM_COLUMNS, toAttempt } from './attempt-row.js';
import { HELD_DESTINATIONS } from './parking.js';
import { DATABASE_NOW } from './database-clock.js';

/**
 * The scheduler's claims: leases on due events' queue rows, within the teams' and destinations'
 * shares. The wide `events` row is only read.
 */

/** The claimed rows, their destination (origin), and the team's signing secrets. */
const CLAIMED = `select ${ATTEMPT_COLUMNS}, ${TEAM_COLUMNS}
  from claimed q join events e on e.id = q.event_id join teams t on t.id = e.team_id order by e.scheduled_at`;

/**
 * A queue row `q`, found by its id, still free to claim: neither leased nor parked. Not spelled
 * `is null`: that matches the predicate of the claims' partial indexes, and with statistics taken
 * while the queue was nearly empty the planner read one of them whole instead of probing the primary
 * key (a claim of 37 read 20,000 entries: bench/README.md, 2026-11-26). `num_nulls` hides it.
 */
const FREE = 'num_nulls(q.lease_token, q.parked_until) = 2';

/**
 * Claims among `candidates` (rows of id, team_id, scheduled_at, destination) within the shares:
 * each place to the team that would hold fewest calls with it (teams in turn while they hold as many),
 * none past its room;
 * within a destination, the teams holding fewest of its calls first.
 * Parameters: $1 limit, $2 lease token, $3 lease ms, $4 owner, $5 team rooms, $6 destination rooms,
 * $7 a team's whole share, $8 a destination's whole share, $9 teams' holdings and rooms at
 * destinations, $10 a team's whole share of a destination, $11 most calls at once to an origin not
 * known to answer; the candidates may use more.
 */
function claimStatement(candidates: string): string {
  return `/* claim due events */ with recursive team_room as (
      select * from jsonb_to_recordset($5::jsonb) as r(team_id uuid, room int)
    ), destination_room as (
      select * from jsonb_to_recordset($6::jsonb) as r(origin text, room int)
    ), pair_room as (
      select * from jsonb_to_recordset($9::jsonb) as r(team_id uuid, origin text, held int, room int)
    ), ${HELD_DESTINATIONS}, ${candidates}, to_park as (
      -- Events of a destination that cannot take calls now leave the claims' indexes until it can.
      -- Like the claim, skipping rows others hold: a claim never waits for a lock.
      select q.event_id, h.until from event_queue q
      join candidates c on c.id = q.event_id
      join held h on h.team_id = c.team_id and h.origin = c.destination
      where c.id is distinct from h.probe_event_id and ${FREE}
      for update of q skip locked
    ), parking as (
      update event_queue q set parked_until = p.until from to_park p where q.event_id = p.event_id
    ), claimable as (
      select c.* from candidates c
      where not exists (select 1 from held h where h.team_id = c.team_id and h.origin = c.destination
                                                  and c.id is distinct from h.probe_event_id)
    ), untried as (
      -- Teams at origins with no recorded call, or whose recorded calls failed since the last answer:
      -- no more calls at once than may fail before the circuit opens.
      select pairs.team_id, pairs.destination from (select distinct team_id, destination from claimable) pairs
      where not exists (select 1 from destinations d
                        where d.team_id = pairs.team_id and d.origin = pairs.destination
                          and d.last_call_at is not null and d.consecutive_failures = 0)
    ), in_turn as (
      select c.*, row_number() over (partition by c.team_id order by c.scheduled_at) as team_rank,
        row_number() over (partition by c.team_id, c.destination order by c.scheduled_at) as pair_rank,
        coalesce(p.held, 0) as held,
        case when u.team_id is null then coalesce(p.room, $10)
             else least(coalesce(p.room, $10), $11 - coalesce(p.held, 0)) end as pair_room
      from claimable c
      left join pair_room p on p.team_id = c.team_id and p.origin = c.destination
      left join untried u on u.team_id = c.team_id and u.destination = c.destination
    ), ranked as (
      select c.id, c.scheduled_at, c.team_rank,
        row_number() over (partition by c.destination order by c.held + c.pair_rank, c.team_rank, c.scheduled_at)
          as destination_rank,
        coalesce(t.room, $7) as team_room, coalesce(d.room, $8) as destination_room
      from in_turn c
      left join team_room t on t.team_id = c.team_id
      left join destination_room d on d.origin = c.destination
      where c.pair_rank <= c.pair_room
    ), chosen as (
      -- Each place to the team that would hold fewest calls with it (held + rank, as room is the share
      -- less what is held): with every team's holdings equal, teams in turn. When the process is full,
      -- each claim takes the few places just freed: served in time order they would go to the busiest
      -- team's backlog, and in plain turns a team of fast calls would get no more places a second than
      -- a team whose calls hold theirs for seconds.
      select id from ranked
      where team_rank <= team_room and destination_rank <= destination_room
      order by team_rank - team_room, team_room desc, scheduled_at
      limit $1
    ), due as (
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
    )
    ${CLAIMED}`;
}

function claimParams(options: ClaimOptions): unknown[] {
  const { shares } = options;
  return [
    options.limit,
    options.leaseToken,
    options.leaseMs,
    options.owner,
    JSON.stringify(shares.teams.map(({ teamId, room }) => ({ team_id: teamId, room }))),
    JSON.stringify(shares.destinations),
    shares.teamMax,
    shares.destinationMax,
    JSON.stringify(
      shares.pairs.map(({ teamId, origin, held, room }) => ({ team_id: teamId, origin, held, room })),
    ),
    shares.pairMax,
    shares.untriedMax ?? shares.pairMax,
  ];
}

/** How far a slot claim looks past the events it may take, for those of teams still with room. */
const SLOT_LOOKAHEAD = 4;

// Teams at their share, destinations at theirs and teams at their share of a destination are
// skipped in the index scan: one team's backlog to an origin cannot fill the look-ahead and hide
// the other teams' events due in the same slot.
const SLOT_CLAIM = claimStatement(`candidates as (
    select q.event_id as id, q.team_id, q.scheduled_at, q.destination
    from event_queue q
    where lease_token is null and parked_until is null and scheduled_at >= $12 and scheduled_at < $13 and scheduled_at <= ${DATABASE_NOW}
      and team_id not in (select team_id from team_room where room = 0)
      and not exists (select 1 from destination_room d where d.origin = q.destination and d.room = 0)
      and not exists (select 1 from pair_room p
                      where p.team_id = q.team_id and p.origin = q.destination and p.room = 0)
    order by scheduled_at
    limit $1 * ${SLOT_LOOKAHEAD}
  )`);

/**
 * Leases pending events of the slot `[from, before)` due now (database clock), oldest first within
 * the shares.
 */
export async function claimDue(
  em: EntityManager,
  options: ClaimOptions & { from: Date; before: Date },
): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const rows = await preparedQuery<AttemptRow>(em, SLOT_CLAIM, [
    ...claimParams(options),
    options.from,
    options.before,
  ]);
  return rows.map(toAttempt);
}

// A loose index scan: one probe per team with pending events, then each team's oldest due ones;
// none at all while nothing is due (one probe of the due index).
const BACKLOG_CLAIM = claimStatement(`pending_teams as (
    (select team_id from event_queue
     where lease_token is null and parked_until is null
       and (select min(scheduled_at) from event_queue where lease_token is null and parked_until is null) <= ${DATABASE_NOW}
     order by team_id limit 1)
    union all
    select (select q.team_id from event_queue q
            where q.lease_token is null and q.parked_until is null and q.team_id > p.team_id
            order by q.team_id limit 1)
    from pending_teams p where p.team_id is not null
  ), candidates as (
    select c.* from pending_teams p
    left join team_room r on r.team_id = p.team_id
    cross join lateral (
      select q.event_id as id, q.team_id, q.scheduled_at, q.destination
      from event_queue q
      where q.lease_token is null and q.parked_until is null and q.team_id = p.team_id
        and q.scheduled_at <= ${DATABASE_NOW}
      -- team_id too, though fixed: the order of the team's due index, so the planner reads that.
      order by q.team_id, q.scheduled_at
      limit least(coalesce(r.room, $7), $1)
    ) c
    where p.team_id is not null
  )`);

/** Leases pending events due now of any slot, serving the teams holding fewest calls first. */
export async function claimBacklog(em: EntityManager, options: ClaimOptions): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const rows = await preparedQuery<AttemptRow>(em, BACKLOG_CLAIM, claimParams(options));
  return rows.map(toAttempt);
}

/** When the next pending event of `[from, before)` that is not due yet falls due, or null. */
export async function nextDueAt(em: EntityManager, from: Date, before: Date): Promise<Date | null> {
  const [row] = await preparedQuery<{ next: Date | string | null }>(
    em,
    `select min(scheduled_at) as next from event_queue
     where lease_token is null and parked_until is null and scheduled_at >= greatest($1::timestamptz, ${DATABASE_NOW}) and scheduled_at < $2`,
    [from, before],
  );
  return row?.next ? asDate(row.next) : null;
}

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
