import type { ClaimShares, DestinationLimit } from '../ports.js';
import { PacedRate } from './rate-window.js';
import { type CallAnswer, UntriedOrigins } from './untried-origins.js';

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
  /** The teams' own limits at destinations: most calls at once, and this process's share of their rate. */
  readonly #limits = new Map<string, { maxInFlight: number | null; rate: PacedRate | null }>();
  #rateTimers = new Map<string, NodeJS.Timeout>();
  #destinationMax: number;
  /** Called when a destination's rate window has room again (its waiting events can be claimed). */
  onRoom: () => void = () => {};
  /** What failed calls say of origins, before the circuit knows. */
  readonly #untried: UntriedOrigins;

  /** `circuitFailures`: `CIRCUIT_FAILURES` of all processes ({@link UntriedOrigins}); none by default. */
  constructor(
    readonly teamMax: number,
    private readonly destinationTotal: number,
    circuitFailures = Number.POSITIVE_INFINITY,
  ) {
    this.#destinationMax = destinationTotal;
    this.#untried = new UntriedOrigins(circuitFailures);
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
    this.#untried.split(processes);
  }

  /**
   * The teams' own limits at destinations (`PATCH /destinations`), with `processes` live scheduler
   * processes sharing each rate. A limit that did not change keeps the starts it counted.
   */
  setLimits(limits: DestinationLimit[], processes: number): void {
    const seen = new Set<string>();
    for (const limit of limits) {
      const key = pairKey(limit);
      seen.add(key);
      const requests = limit.rate && Math.max(1, Math.floor(limit.rate.requests / Math.max(1, processes)));
      const current = this.#limits.get(key)?.rate;
      const rate =
        limit.rate && requests
          ? current && current.requests === requests && current.windowMs === limit.rate.perMs
            ? current
            : new PacedRate(requests, limit.rate.perMs)
          : null;
      this.#limits.set(key, { maxInFlight: limit.maxInFlight, rate });
    }
    for (const key of this.#limits.keys()) if (!seen.has(key)) this.#limits.delete(key);
  }

  /** Room left for the teams, destinations and team-destination pairs with calls in flight or limits, for the next claim. */
  snapshot(): ClaimShares {
    const pairMax = this.pairMax;
    const now = performance.now();
    const pairs = new Map<string, { held: number; room: number }>();
    for (const [key, held] of this.#pairs) pairs.set(key, { held, room: this.#pairRoom(key, held, now) });
    for (const key of [...this.#limits.keys(), ...this.#untried.down()]) {
      if (pairs.has(key)) continue;
      const room = this.#pairRoom(key, 0, now);
      if (room < pairMax) pairs.set(key, { held: 0, room });
    }
    return {
      teamMax: this.teamMax,
      destinationMax: this.#destinationMax,
      pairMax,
      untriedMax: Math.min(pairMax, this.#untried.failures),
      teams: [...this.#teams].map(([teamId, used]) => ({ teamId, room: Math.max(0, this.teamMax - used) })),
      destinations: [...this.#destinations].map(([origin, used]) => ({
        origin,
        room: Math.max(0, this.#destinationMax - used),
      })),
      pairs: [...pairs].map(([key, pair]) => ({ ...holderOf(key), ...pair })),
    };
  }

  /** Room of a team at a destination: its share of the places, its own limit, its rate. */
  #pairRoom(key: string, held: number, now: number): number {
    const places = this.#pairPlaces(key, now) - held;
    return Math.max(0, Math.min(places, this.#limits.get(key)?.rate?.room(now) ?? places));
  }

  take(holder: Holder): void {
    const team = increment(this.#teams, holder.teamId);
    const destination = increment(this.#destinations, holder.origin);
    const key = pairKey(holder);
    const pair = increment(this.#pairs, key);
    if (team >= this.teamMax) this.#saturated.add(teamKey(holder.teamId));
    if (destination >= this.#destinationMax) this.#saturated.add(destinationKey(holder.origin));
    if (pair >= this.#pairPlaces(key)) this.#saturated.add(key);
    const rate = this.#limits.get(key)?.rate;
    if (rate) this.#started(key, rate);
  }

  /** Counts a start against the rate; when the window is full, wakes the claims as it reopens. */
  #started(key: string, rate: PacedRate): void {
    const now = performance.now();
    rate.take(now);
    const reopensAt = rate.nextRoomAt(now);
    if (reopensAt === undefined || this.#rateTimers.has(key)) return;
    const timer = setTimeout(
      () => {
        this.#rateTimers.delete(key);
        this.wake();
        this.onRoom();
      },
      reopensAt - now + 1,
    );
    timer.unref();
    this.#rateTimers.set(key, timer);
  }

  /**
   * Gives back a call's place; returns whether its team, destination or pair reached its share
   * while calls of it were in flight and has now freed a batch of places ({@link refillBatch}), so
   * events of it may be waiting and a claim can take several. Every call that ends past that point
   * says so, so that room freed while a claim runs is not left unused until the next tick; and
   * whoever waits in {@link whenFreed} wakes at once. Refilling one place per call that ends would
   * cost a claim per delivery (bench/destinations).
   */
  give(holder: Holder, answer?: CallAnswer): boolean {
    const key = pairKey(holder);
    const now = performance.now();
    if (answer) this.#untried.note(key, answer, now);
    const held = [
      [teamKey(holder.teamId), decrement(this.#teams, holder.teamId), this.teamMax],
      [destinationKey(holder.origin), decrement(this.#destinations, holder.origin), this.#destinationMax],
      [key, decrement(this.#pairs, key), this.#pairPlaces(key)],
    ] as const;
    let mayWait = false;
    for (const [name, left, share] of held) {
      if (!this.#saturated.has(name)) continue;
      if (left <= share - refillBatch(share)) mayWait = true;
      if (left === 0) this.#saturated.delete(name);
    }
    if (!this.#pairs.has(key)) this.#untried.idle(key, now);
    if (mayWait) this.wake();
    return mayWait;
  }

  /**
   * The places of a team at a destination: its share of them, or its own limit, or the failures
   * left to an origin that failed here since it last answered, whichever is lowest.
   */
  #pairPlaces(key: string, now = performance.now()): number {
    const own = Math.min(this.pairMax, this.#limits.get(key)?.maxInFlight ?? Number.MAX_SAFE_INTEGER);
    return Math.min(own, this.#untried.places(key, now));
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

  /** Wakes whoever waits in {@link whenFreed}: also when room frees outside the shares (the process's capacity). */
  wake(): void {
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

/** Returns how many calls are left. */
function decrement(counts: Map<string, number>, key: string): number {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
  return Math.max(0, left);
}

/** How many places a holder at its share frees before its waiting events are claimed again. */
export function refillBatch(share: number): number {
  return Math.max(1, Math.floor(share / 4));
}
