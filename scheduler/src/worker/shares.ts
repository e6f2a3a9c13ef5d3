import type { ClaimShares } from '../ports.js';

interface Holder {
  teamId: string;
  /** The destination: the origin the call connects to. */
  origin: string;
}

/**
 * Calls in flight in this process per team and per destination, against their shares: a team gets
 * at most `teamMax` of this process's calls; a destination at most its share of a limit that holds
 * for all scheduler processes together, split evenly between the live ones.
 */
export class Shares {
  readonly #teams = new Map<string, number>();
  readonly #destinations = new Map<string, number>();
  /** Teams and destinations that reached their share since they last had no call in flight. */
  readonly #saturated = new Set<string>();
  #destinationMax: number;

  constructor(
    readonly teamMax: number,
    private readonly destinationTotal: number,
  ) {
    this.#destinationMax = destinationTotal;
  }

  get destinationMax(): number {
    return this.#destinationMax;
  }

  /** Divides the destination limit between `processes` live scheduler processes. */
  splitDestinations(processes: number): void {
    this.#destinationMax = Math.max(1, Math.ceil(this.destinationTotal / Math.max(1, processes)));
  }

  /** Room left for the teams and destinations with calls in flight, for the next claim. */
  snapshot(): ClaimShares {
    return {
      teamMax: this.teamMax,
      destinationMax: this.#destinationMax,
      teams: [...this.#teams].map(([teamId, used]) => ({ teamId, room: Math.max(0, this.teamMax - used) })),
      destinations: [...this.#destinations].map(([origin, used]) => ({
        origin,
        room: Math.max(0, this.#destinationMax - used),
      })),
    };
  }

  take(holder: Holder): void {
    const team = (this.#teams.get(holder.teamId) ?? 0) + 1;
    const destination = (this.#destinations.get(holder.origin) ?? 0) + 1;
    this.#teams.set(holder.teamId, team);
    this.#destinations.set(holder.origin, destination);
    if (team >= this.teamMax) this.#saturated.add(teamKey(holder.teamId));
    if (destination >= this.#destinationMax) this.#saturated.add(destinationKey(holder.origin));
  }

  /**
   * Gives back a call's place; returns whether its team or destination reached its share while this
   * call was in flight, so events of it may be waiting. Every call that ends says so — not only the
   * first — so that room freed while a claim runs is not left unused until the next tick.
   */
  give(holder: Holder): boolean {
    const team = teamKey(holder.teamId);
    const destination = destinationKey(holder.origin);
    const mayWait = this.#saturated.has(team) || this.#saturated.has(destination);
    if (!decrement(this.#teams, holder.teamId)) this.#saturated.delete(team);
    if (!decrement(this.#destinations, holder.origin)) this.#saturated.delete(destination);
    return mayWait;
  }
}

const teamKey = (teamId: string) => `team ${teamId}`;
const destinationKey = (origin: string) => `destination ${origin}`;

/** Returns whether calls are left. */
function decrement(counts: Map<string, number>, key: string): boolean {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
  return left > 0;
}
