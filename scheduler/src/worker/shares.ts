import type { ClaimShares } from '../ports.js';

interface Holder {
  teamId: string;
  /** The destination: the origin the call connects to. */
  origin: string;
}

/**
 * Calls in flight in this process per team, per destination and per team at a destination, against
 * their shares: a team gets at most `teamMax` of this process's calls; a destination at most its
 * share of a limit that holds for all scheduler processes together, split evenly between the live
 * ones; and one team at most three quarters of a destination's share, so the places it leaves go to
 * the other teams calling the same origin, in turn (the claim serves the team holding fewest first).
 */
export class Shares {
  readonly #teams = new Map<string, number>();
  readonly #destinations = new Map<string, number>();
  readonly #pairs = new Map<string, number>();
  /** Holders that reached their share since they last had no call in flight. */
  readonly #saturated = new Set<string>();
  readonly #waiting = new Set<() => void>();
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

  /** Most calls of one team to one destination in this process. */
  get pairMax(): number {
    return Math.max(1, this.#destinationMax - Math.ceil(this.#destinationMax / 4));
  }

  /** Divides the destination limit between `processes` live scheduler processes. */
  splitDestinations(processes: number): void {
    this.#destinationMax = Math.max(1, Math.ceil(this.destinationTotal / Math.max(1, processes)));
  }

  /** Room left for the teams, destinations and team-destination pairs with calls in flight, for the next claim. */
  snapshot(): ClaimShares {
    const pairMax = this.pairMax;
    return {
      teamMax: this.teamMax,
      destinationMax: this.#destinationMax,
      pairMax,
      teams: [...this.#teams].map(([teamId, used]) => ({ teamId, room: Math.max(0, this.teamMax - used) })),
      destinations: [...this.#destinations].map(([origin, used]) => ({
        origin,
        room: Math.max(0, this.#destinationMax - used),
      })),
      pairs: [...this.#pairs].map(([key, held]) => ({
        ...holderOf(key),
        held,
        room: Math.max(0, pairMax - held),
      })),
    };
  }

  take(holder: Holder): void {
    const team = increment(this.#teams, holder.teamId);
    const destination = increment(this.#destinations, holder.origin);
    const pair = increment(this.#pairs, pairKey(holder));
    if (team >= this.teamMax) this.#saturated.add(teamKey(holder.teamId));
    if (destination >= this.#destinationMax) this.#saturated.add(destinationKey(holder.origin));
    if (pair >= this.pairMax) this.#saturated.add(pairKey(holder));
  }

  /**
   * Gives back a call's place; returns whether its team, destination or pair reached its share
   * while this call was in flight, so events of it may be waiting. Every call that ends says so —
   * not only the first — so that room freed while a claim runs is not left unused until the next
   * tick; and whoever waits in {@link whenFreed} wakes at once.
   */
  give(holder: Holder): boolean {
    const keys = [teamKey(holder.teamId), destinationKey(holder.origin), pairKey(holder)];
    const mayWait = keys.some((key) => this.#saturated.has(key));
    if (!decrement(this.#teams, holder.teamId)) this.#saturated.delete(keys[0] ?? '');
    if (!decrement(this.#destinations, holder.origin)) this.#saturated.delete(keys[1] ?? '');
    if (!decrement(this.#pairs, pairKey(holder))) this.#saturated.delete(keys[2] ?? '');
    if (mayWait) this.#wake();
    return mayWait;
  }

  /**
   * Resolves after `ms`, or sooner when a call of a holder at its share ends: a slot whose due
   * events wait for a share claims again as soon as there is room, not at its next poll.
   */
  whenFreed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waiting.add(wake);
    });
  }

  #wake(): void {
    for (const wake of [...this.#waiting]) wake();
  }
}

const teamKey = (teamId: string) => `team ${teamId}`;
const destinationKey = (origin: string) => `destination ${origin}`;
/** A team at a destination: the team id (a UUID, no spaces) first. */
const pairKey = (holder: Holder) => `${holder.teamId} ${holder.origin}`;
function holderOf(key: string): Holder {
  const space = key.indexOf(' ');
  return { teamId: key.slice(0, space), origin: key.slice(space + 1) };
}

function increment(counts: Map<string, number>, key: string): number {
  const count = (counts.get(key) ?? 0) + 1;
  counts.set(key, count);
  return count;
}

/** Returns whether calls are left. */
function decrement(counts: Map<string, number>, key: string): boolean {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
  return left > 0;
}
