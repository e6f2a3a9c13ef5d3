import type { ClaimShares, DestinationLimit } from '../ports.js';
import { CallPace } from './call-pace.js';
import { PacedRate } from './rate-window.js';
import {
  type Holder,
  decrement,
  destinationKey,
  holderOf,
  increment,
  keysOf,
  pairKey,
  teamKey,
} from './holders.js';
import { type CallAnswer, UntriedOrigins } from './untried-origins.js';

/** How a call ended: what it says of its origin, and how long it lasted. */
export interface CallEnd {
  answer: CallAnswer;
  ms: number;
}

/** Whether a claimed call may start: now, once a call in flight ends, or never here (hand it back). */
export type Start = 'now' | 'wait' | 'back';

/**
 * Calls in flight in this process per team, per destination and per team at a destination, against
 * their shares: a team gets at most `teamMax` of this process's calls; a destination at most its
 * share of a limit that holds for all scheduler processes together, split evenly between the live
 * ones. One team whose calls to a destination are slow, or not known yet, holds at most three
 * quarters of its share (`pairMax`), so the places it leaves go at once to the other teams calling
 * the same origin (the claim serves the team holding fewest first). One whose calls there are quick
 * may hold the whole share: each of its places frees within milliseconds, and goes to the call
 * waiting here whose team holds fewest ({@link WaitingStarts}).
 * A team whose calls to a destination are quick may lease more than its places: those calls wait
 * in this process (`queue`) and start as places free, so a place's next call does not wait for a
 * claim ({@link leaseAhead}).
 */
export class Shares {
  readonly #teams = new Map<string, number>();
  readonly #destinations = new Map<string, number>();
  readonly #pairs = new Map<string, number>();
  /** Calls leased ahead and waiting for a place. */
  readonly #queued = {
    teams: new Map<string, number>(),
    destinations: new Map<string, number>(),
    pairs: new Map<string, number>(),
  };
  readonly #pace = new CallPace();
  /**
   * Pairs that reached their places and have just run out of calls, and since when: listed with
   * what they lease ahead for a while, so that a claim that comes after a burst's last call refills
   * them whole rather than place by place.
   */
  readonly #lately = new Map<string, number>();
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

  /** Most calls of one team to one destination in this process while its calls there are slow or unknown. */
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

  /**
   * Room left for the teams, destinations and team-destination pairs with calls in flight, waiting or
   * limits, for the next claim: their places less the calls they hold, plus what they lease ahead.
   */
  snapshot(): ClaimShares {
    const pairMax = this.pairMax;
    const now = performance.now();
    const pairs = new Map<string, { held: number; room: number; free: number }>();
    const destinationsAhead = new Map<string, number>();
    this.#forgetLately(now);
    for (const key of keysOf(this.#pairs, this.#queued.pairs, this.#lately)) {
      const ahead = this.#ahead(key, now);
      increment(destinationsAhead, holderOf(key).origin, ahead);
      const held = this.#pairs.get(key) ?? 0;
      const queued = this.#queued.pairs.get(key) ?? 0;
      const places = this.#pairRoom(key, held, now) - queued;
      const free = this.#slotFree(key, Math.max(0, places), now);
      pairs.set(key, { held: held + queued, room: Math.max(0, places + ahead), free });
    }
    for (const key of [...this.#limits.keys(), ...this.#untried.down()]) {
      if (pairs.has(key)) continue;
      const room = this.#pairRoom(key, 0, now);
      if (room < pairMax) pairs.set(key, { held: 0, room, free: room });
    }
    // A team's room orders the claim's turns (held + rank against its share), so it counts what the
    // team leased and nothing ahead: a team of quick calls is not served before the others for it.
    // A destination's places free now stay open to the other teams, however many calls one team
    // leased ahead there (two claims may lease ahead for it at once).
    const rooms = (kind: 'teams' | 'destinations', share: number, ahead?: Map<string, number>) =>
      [...keysOf(this.#held(kind), this.#queued[kind], ahead ?? new Map<string, number>())].map((key) => {
        const free = share - (this.#held(kind).get(key) ?? 0);
        const leasable = free - (this.#queued[kind].get(key) ?? 0) + (ahead?.get(key) ?? 0);
        return { key, room: Math.max(0, ahead ? Math.max(free, leasable) : leasable) };
      });
    return {
      teamMax: this.teamMax,
      destinationMax: this.#destinationMax,
      pairMax,
      untriedMax: Math.min(pairMax, this.#untried.failures),
      teams: rooms('teams', this.teamMax).map(({ key, room }) => ({ teamId: key, room })),
      destinations: rooms('destinations', this.#destinationMax, destinationsAhead).map(({ key, room }) => ({
        origin: key,
        room,
      })),
      pairs: [...pairs].map(([key, pair]) => ({ ...holderOf(key), ...pair })),
    };
  }

  #forgetLately(now: number): void {
    for (const [key, since] of this.#lately) {
      if (now - since < LATELY_MS) continue;
      this.#lately.delete(key);
      this.#pace.forget(key);
    }
  }

  #held(kind: 'teams' | 'destinations'): Map<string, number> {
    return kind === 'teams' ? this.#teams : this.#destinations;
  }

  /**
   * The free places of a team at a destination that a slot claim may fill: none while it holds all
   * but less than a refill batch of them. Its refills are the backlog claim's, woken as a batch
   * frees ({@link give}); a slot claim reading the slot's oldest events would find that team's first
   * and hide the other teams' events due in the same second (bench/destinations `shares`).
   */
  #slotFree(key: string, free: number, now: number): number {
    if (this.#limits.get(key)?.rate) return free;
    return free >= refillBatch(this.#pairPlaces(key, now)) ? free : 0;
  }

  /**
   * Calls a team may lease ahead of its places at a destination: what they finish in about a
   * claim's time. None at a rate limit (paced by the window), nor at an origin that has not answered
   * here or failed since (no more calls than may fail).
   */
  #ahead(key: string, now: number): number {
    if (this.#limits.get(key)?.rate || this.#untried.places(key, now) !== Number.POSITIVE_INFINITY) return 0;
    return this.#pace.ahead(key, this.#pairPlaces(key, now));
  }

  /** Room of a team at a destination: its share of the places, its own limit, its rate. */
  #pairRoom(key: string, held: number, now: number): number {
    const places = this.#pairPlaces(key, now) - held;
    return Math.max(0, Math.min(places, this.#limits.get(key)?.rate?.room(now) ?? places));
  }

  /**
   * Whether a claimed call of `holder` may start: now; once a call in flight ends and frees the place
   * it waits for; or not here, when nothing in flight would free it (its rate window is full, or its
   * origin failed here as often as may fail).
   */
  startable(holder: Holder, now = performance.now()): Start {
    const key = pairKey(holder);
    if ((this.#limits.get(key)?.rate?.room(now) ?? 1) === 0) return 'back';
    const places: [number, number][] = [
      [this.#teams.get(holder.teamId) ?? 0, this.teamMax],
      [this.#destinations.get(holder.origin) ?? 0, this.#destinationMax],
      [this.#pairs.get(key) ?? 0, this.#pairPlaces(key, now)],
    ];
    let start: Start = 'now';
    for (const [held, share] of places) {
      if (held < share) continue;
      if (held === 0) return 'back';
      start = 'wait';
    }
    return start;
  }

  /** Calls of the team at the destination in flight. */
  held(holder: Holder): number {
    return this.#pairs.get(pairKey(holder)) ?? 0;
  }

  /** A claimed call waits for a place ({@link startable}). */
  queue(holder: Holder): void {
    increment(this.#queued.teams, holder.teamId);
    increment(this.#queued.destinations, holder.origin);
    increment(this.#queued.pairs, pairKey(holder));
  }

  /** A call that waited starts ({@link take}) or is handed back. */
  unqueue(holder: Holder): void {
    decrement(this.#queued.teams, holder.teamId);
    decrement(this.#queued.destinations, holder.origin);
    decrement(this.#queued.pairs, pairKey(holder));
  }

  take(holder: Holder): void {
    const team = increment(this.#teams, holder.teamId);
    const destination = increment(this.#destinations, holder.origin);
    const key = pairKey(holder);
    const pair = increment(this.#pairs, key);
    this.#lately.delete(key);
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

  /** Whether the holder's calls to its origin found it down since it last answered in this process. */
  isDown(holder: Holder): boolean {
    return this.#untried.isDown(pairKey(holder));
  }

  /**
   * Gives back a call's place; returns whether its team, destination or pair reached its share
   * while calls of it were in flight and has now freed a batch of places ({@link refillBatch}), so
   * events of it may be waiting and a claim can take several. Every call that ends past that point
   * says so, so that room freed while a claim runs is not left unused until the next tick; and
   * whoever waits in {@link whenFreed} wakes at once. Refilling one place per call that ends would
   * cost a claim per delivery (bench/destinations). `ended` says how a call that reached its origin
   * went.
   */
  give(holder: Holder, ended?: CallEnd): boolean {
    const key = pairKey(holder);
    const now = performance.now();
    if (ended) {
      this.#untried.note(key, ended.answer, now);
      this.#pace.note(key, ended.ms);
    }
    const queued = this.#queued.pairs.get(key) ?? 0;
    // A team's calls to a destination count with those waiting for its places: the claim refills both.
    const held = [
      [teamKey(holder.teamId), decrement(this.#teams, holder.teamId), this.teamMax],
      [destinationKey(holder.origin), decrement(this.#destinations, holder.origin), this.#destinationMax],
      [key, decrement(this.#pairs, key) + queued, this.#pairPlaces(key, now) + this.#ahead(key, now)],
    ] as const;
    const busy = this.#saturated.has(key);
    let mayWait = false;
    for (const [name, left, share] of held) {
      if (!this.#saturated.has(name)) continue;
      if (left <= share - refillBatch(share)) mayWait = true;
      if (left === 0) this.#saturated.delete(name);
    }
    if (!this.#pairs.has(key) && queued === 0) {
      this.#untried.idle(key, now);
      if (busy) this.#lately.set(key, now);
      else this.#pace.forget(key);
    }
    if (mayWait) this.wake();
    return mayWait;
  }

  /**
   * The places of a team at a destination: its share of them (all of them while its calls there are
   * quick, see {@link Shares}), or its own limit, or the failures left to an origin that failed here
   * since it last answered, whichever is lowest.
   */
  #pairPlaces(key: string, now = performance.now()): number {
    const share = this.#pace.quick(key) ? this.#destinationMax : this.pairMax;
    const own = Math.min(share, this.#limits.get(key)?.maxInFlight ?? Number.MAX_SAFE_INTEGER);
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

/** How long a pair that ran out of calls after reaching its places stays listed ({@link Shares}). */
const LATELY_MS = 1000;

/** How many places a holder at its share frees before its waiting events are claimed again. */
export function refillBatch(share: number): number {
  return Math.max(1, Math.floor(share / 4));
}
