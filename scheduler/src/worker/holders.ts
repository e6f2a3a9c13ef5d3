import type { ClaimShares } from '../ports.js';

/** Who holds a call: a team, at a destination (the origin the call connects to). */
export interface Holder {
  teamId: string;
  /** The destination: the origin the call connects to. */
  origin: string;
}

/**
 * Whether a claim of `limit` within `shares` may have left due events: it took its limit, or as
 * many calls of a team, a destination or a team at a destination as it had room for.
 */
export function filledARoom(claimed: Holder[], shares: ClaimShares, limit: number): boolean {
  if (claimed.length >= limit) return true;
  const rooms = new Map<string, number>([
    ...shares.teams.map(({ teamId, room }) => [teamKey(teamId), room] as const),
    ...shares.destinations.map(({ origin, room }) => [destinationKey(origin), room] as const),
    ...shares.pairs.map((pair) => [pairKey(pair), pair.room] as const),
  ]);
  const taken = new Map<string, number>();
  const defaults = [
    shares.teamMax,
    shares.destinationMax,
    Math.min(shares.pairMax, shares.untriedMax ?? shares.pairMax),
  ];
  for (const holder of claimed) {
    const names = [teamKey(holder.teamId), destinationKey(holder.origin), pairKey(holder)];
    for (const [n, name] of names.entries()) {
      const count = increment(taken, name);
      if (count >= (rooms.get(name) ?? defaults[n] ?? 0)) return true;
    }
  }
  return false;
}

export const teamKey = (teamId: string) => `team ${teamId}`;
export const destinationKey = (origin: string) => `destination ${origin}`;
/** A team at a destination: the team id (a UUID, no spaces) first. */
export const pairKey = (holder: Holder) => `${holder.teamId} ${holder.origin}`;
export function holderOf(key: string): Holder {
  const space = key.indexOf(' ');
  return { teamId: key.slice(0, space), origin: key.slice(space + 1) };
}

export function keysOf(...counts: Map<string, number>[]): Set<string> {
  return new Set(counts.flatMap((count) => [...count.keys()]));
}

export function increment(counts: Map<string, number>, key: string, by = 1): number {
  const count = (counts.get(key) ?? 0) + by;
  counts.set(key, count);
  return count;
}

/** Returns how many calls are left. */
export function decrement(counts: Map<string, number>, key: string): number {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
  return Math.max(0, left);
}
