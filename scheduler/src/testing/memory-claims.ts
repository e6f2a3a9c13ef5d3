import type { ClaimShares } from '../ports.js';

/** What a claim ranks: a pending event that is due. */
export interface Candidate {
  id: string;
  teamId: string;
  scheduledAt: Date;
  /** Its destination: the origin its call connects to. */
  origin: string;
}

/** Before every time: no event is due before schedulers served. */
export const NEVER = new Date(-8.64e15);

/** Oldest first, except that events due since `servedSince` come before those due while none served. */
const inQueueOrder = (servedSince: Date) => (a: Candidate, b: Candidate) =>
  Number(a.scheduledAt < servedSince) - Number(b.scheduledAt < servedSince) ||
  a.scheduledAt.getTime() - b.scheduledAt.getTime() ||
  a.id.localeCompare(b.id);

/** 1, 2, 3… per key, in the order given. */
function rankWithin<T>(items: T[], key: (item: T) => string): Map<T, number> {
  const counts = new Map<string, number>();
  const ranks = new Map<T, number>();
  for (const item of items) {
    const rank = (counts.get(key(item)) ?? 0) + 1;
    counts.set(key(item), rank);
    ranks.set(item, rank);
  }
  return ranks;
}

/**
 * The candidates one claim takes, in the claim statement's order: each place to the team that would
 * hold fewest calls with it (its turn less its room; teams in turn while they hold as many), no team,
 * destination or team at a destination past its room.
 * Within a destination, the teams holding fewest of its calls come first; a destination's turn
 * counts every candidate calling it within its team's room there, also those their team's room
 * left out.
 */
export function chooseClaims(
  candidates: Candidate[],
  shares: ClaimShares,
  limit: number,
  servedSince = NEVER,
): Candidate[] {
  const byTime = inQueueOrder(servedSince);
  const teamRoom = new Map(shares.teams.map(({ teamId, room }) => [teamId, room]));
  const destinationRoom = new Map(shares.destinations.map(({ origin, room }) => [origin, room]));
  const pairs = new Map(shares.pairs.map((pair) => [pairOf(pair), pair]));
  const byTimeFirst = [...candidates].sort(byTime);
  const teamRank = rankWithin(byTimeFirst, (c) => c.teamId);
  const pairRank = rankWithin(byTimeFirst, pairOf);
  const turn = (c: Candidate) => teamRank.get(c) ?? 0;
  const room = (c: Candidate) => teamRoom.get(c.teamId) ?? shares.teamMax;
  const held = (c: Candidate) => pairs.get(pairOf(c))?.held ?? 0;
  const withinPair = candidates.filter(
    (c) => (pairRank.get(c) ?? 0) <= (pairs.get(pairOf(c))?.room ?? shares.pairMax),
  );
  const fewestHeldFirst = (a: Candidate, b: Candidate) =>
    held(a) + (pairRank.get(a) ?? 0) - held(b) - (pairRank.get(b) ?? 0) || turn(a) - turn(b) || byTime(a, b);
  const destinationRank = rankWithin([...withinPair].sort(fewestHeldFirst), (c) => c.origin);
  return withinPair
    .filter(
      (c) =>
        turn(c) <= (teamRoom.get(c.teamId) ?? shares.teamMax) &&
        (destinationRank.get(c) ?? 0) <= (destinationRoom.get(c.origin) ?? shares.destinationMax),
    )
    .sort((a, b) => turn(a) - room(a) - (turn(b) - room(b)) || room(b) - room(a) || byTime(a, b))
    .slice(0, limit);
}

const pairOf = (c: { teamId: string; origin: string }) => `${c.teamId} ${c.origin}`;

/** What a slot claim ranks: its oldest due events, four per place, of teams with room and teams at destinations with free places (as in SQL). */
export const SLOT_LOOKAHEAD = 4;

/** What a backlog claim ranks: of each team, its oldest due events up to its room and the limit. */
export function backlogCandidates(
  due: Candidate[],
  shares: ClaimShares,
  limit: number,
  servedSince = NEVER,
): Candidate[] {
  const byTime = inQueueOrder(servedSince);
  const teamRoom = new Map(shares.teams.map(({ teamId, room }) => [teamId, room]));
  const rank = rankWithin([...due].sort(byTime), (c) => c.teamId);
  return due.filter((c) => (rank.get(c) ?? 0) <= Math.min(teamRoom.get(c.teamId) ?? shares.teamMax, limit));
}

/** The candidates of a slot claim, given the slot's due events. */
export function slotCandidates(due: Candidate[], shares: ClaimShares, limit: number): Candidate[] {
  const full = new Set(shares.teams.filter(({ room }) => room === 0).map(({ teamId }) => teamId));
  const busy = new Set(shares.pairs.filter((pair) => (pair.free ?? pair.room) === 0).map(pairOf));
  return due
    .filter((c) => !full.has(c.teamId) && !busy.has(pairOf(c)))
    .sort(inQueueOrder(NEVER))
    .slice(0, limit * SLOT_LOOKAHEAD);
}
