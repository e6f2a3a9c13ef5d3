import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClaimOptions, ClaimedAttempt } from '@webhook-scheduler/scheduler';
import { HELD_DESTINATIONS, lastAnswer } from '../destinations/store/destination-holds.js';
import { type AttemptRow, toAttempt } from '../events/store/attempt-row.js';
import {
  BACKLOG_CANDIDATES,
  CLAIMED_ATTEMPTS,
  LEASE_CHOSEN,
  PARK_HELD,
  SLOT_CANDIDATES,
} from '../events/store/claims.js';
import { type PreparedCall, preparedQuery } from '../shared/raw-query.js';

/**
 * The scheduler's claims: leases on due events' queue rows, within the teams' and destinations'
 * shares. One statement, composed from the fragments of each table's owner.
 */

/**
 * Claims among `candidates` (rows of id, team_id, scheduled_at, destination) within the shares:
 * each place to the team that would hold fewest calls with it (teams in turn while they hold as many),
 * none past its room;
 * within a destination, the teams holding fewest of its calls first.
 * Parameters: $1 limit, $2 lease token, $3 lease ms, $4 owner, $5 team rooms, $6 destination rooms,
 * $7 a team's whole share, $8 a destination's whole share, $9 teams' holdings and rooms at
 * destinations, $10 a team's whole share of a destination, $11 most calls at once to an origin not
 * known to answer, $12 since when schedulers have served (a team's events due since then come
 * first); the candidates may use more.
 */
function claimStatement(candidates: string): string {
  return `/* claim due events */ with recursive team_room as (
      select * from jsonb_to_recordset($5::jsonb) as r(team_id uuid, room int)
    ), destination_room as (
      select * from jsonb_to_recordset($6::jsonb) as r(origin text, room int)
    ), pair_room as (
      select * from jsonb_to_recordset($9::jsonb) as r(team_id uuid, origin text, held int, room int, free int)
    ), ${HELD_DESTINATIONS}, ${candidates}, ${PARK_HELD}, claimable as (
      select c.* from candidates c
      where not exists (select 1 from held h where h.team_id = c.team_id and h.origin = c.destination
                                                  and c.id is distinct from h.probe_event_id)
    ), untried as materialized (
      -- Teams at origins with no recorded call, or whose recorded calls failed since the last answer:
      -- no more calls at once than may fail before the circuit opens. Materialized, so each pair is
      -- probed once: inlined, the planner probed every pair again for each candidate (a slot claim
      -- of 500 among 248 pairs: 124,000 probes, 250 ms).
      select pairs.team_id, pairs.destination from (select distinct team_id, destination from claimable) pairs
      left join ${lastAnswer('pairs.team_id', 'pairs.destination', 'recorded')} on true
      where recorded.answered is not true
    ), in_turn as (
      select c.*, c.scheduled_at < $12::timestamptz as due_while_down,
        row_number() over (partition by c.team_id order by c.scheduled_at < $12::timestamptz, c.scheduled_at) as team_rank,
        row_number() over (partition by c.team_id, c.destination order by c.scheduled_at < $12::timestamptz, c.scheduled_at)
          as pair_rank,
        coalesce(p.held, 0) as held,
        -- A hashed subplan, built once: as a join of two CTEs, whose sizes the planner cannot know,
        -- it became a nested loop (a slot claim of 500 among 2,000 candidates to 1,025 untried
        -- pairs: 2 million comparisons, 230 ms; bench/README.md, 2026-11-29 morning).
        case when (c.team_id, c.destination) in (select team_id, destination from untried)
             then least(coalesce(p.room, $10), $11 - coalesce(p.held, 0))
             else coalesce(p.room, $10) end as pair_room
      from claimable c
      left join pair_room p on p.team_id = c.team_id and p.origin = c.destination
    ), ranked as (
      select c.id, c.scheduled_at, c.due_while_down, c.team_rank,
        row_number() over (partition by c.destination
                           order by c.held + c.pair_rank, c.team_rank, c.due_while_down, c.scheduled_at)
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
      order by team_rank - team_room, team_room desc, due_while_down, scheduled_at
      limit $1
    ), ${LEASE_CHOSEN}
    ${CLAIMED_ATTEMPTS}`;
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
      shares.pairs.map(({ teamId, origin, held, room, free }) => ({
        team_id: teamId,
        origin,
        held,
        room,
        free: free ?? room,
      })),
    ),
    shares.pairMax,
    shares.untriedMax ?? shares.pairMax,
    options.servedSince ?? '-infinity',
  ];
}

const SLOT_CLAIM = claimStatement(SLOT_CANDIDATES);

/**
 * Leases pending events of the slot `[from, before)` due now (database clock) or within `aheadMs`,
 * oldest first within the shares.
 */
export async function claimDue(
  em: EntityManager,
  options: ClaimOptions & { from: Date; before: Date; aheadMs?: number },
): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const rows = await preparedQuery<AttemptRow>(em, SLOT_CLAIM, [
    ...claimParams(options),
    options.from,
    options.before,
    options.aheadMs ?? 0,
  ]);
  return rows.map(toAttempt);
}

const BACKLOG_CLAIM = claimStatement(BACKLOG_CANDIDATES);

/**
 * Leases pending events due now of any slot (due from `from` on, when given), or within `aheadMs`
 * of now, serving the teams holding fewest calls first.
 */
export async function claimBacklog(
  em: EntityManager,
  options: ClaimOptions & { from?: Date; aheadMs?: number },
): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const rows = await preparedQuery<AttemptRow>(em, BACKLOG_CLAIM, [
    ...claimParams(options),
    options.from ?? '-infinity',
    options.aheadMs ?? 0,
  ]);
  return rows.map(toAttempt);
}

/** Both claims with nothing to take: no room anywhere, limit 0 ({@link prepareOnEveryConnection}). */
export function claimsTakingNothing(): PreparedCall[] {
  const now = new Date();
  const params = claimParams({
    limit: 0,
    leaseMs: 1,
    leaseToken: randomUUID(),
    owner: 0,
    shares: { teamMax: 0, destinationMax: 0, pairMax: 0, teams: [], destinations: [], pairs: [] },
  });
  return [
    { sql: SLOT_CLAIM, params: [...params, now, now, 0] },
    { sql: BACKLOG_CLAIM, params: [...params, now, 0] },
  ];
}
