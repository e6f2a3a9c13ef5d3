import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { leaseWindow } from '../lease.rules.js';
import type { Owner } from '../liveness/owner-registry.js';
import type { ClaimLine, DeliveryMetrics } from '../metrics.js';
import type { AttemptTracing, ClaimOptions, ClaimedAttempt, EventStore, Sender } from '../ports.js';
import { isStaleSlot, slotOf } from '../timer/slot-jobs.js';
import { AttemptDelivery } from './attempt-delivery.js';
import { type Capacity, fewestPlaces, placesKeptForDue } from './capacity.js';
import type { OutcomeWriter } from './outcome-writer.js';
import { filledARoom } from './holders.js';
import type { HoldEnds } from './hold-ends.js';
import type { Shares } from './shares.js';
import { nextDueMatters } from './slot-wake.js';
import { WaitingStarts } from './waiting-starts.js';
import { type SlotNudge, SlotNudges } from './slot-nudges.js';
import { DatabaseClock } from './database-clock.js';
import type { Wakeup } from './wakeup.js';

export interface DeliveryWorkerOptions {
  /** How long a claim holds: longer than the webhook timeout plus the time to record the outcome. */
  leaseMs: number;
  /** The longest a webhook call lasts. */
  timeoutMs: number;
  /** Most events claimed by one query. */
  claimBatch: number;
  /** How often a running slot looks for events added to it after it started. */
  pollMs: number;
  /**
   * How long before their time a slot's claim may take events, so that its own time is not added to
   * theirs. It claims once the next event is half that away: each claim takes about that much.
   */
  claimAheadMs: number;
  missedToleranceMs: number;
}

/** Whether this process is alive as far as the others can tell (see OwnerRegistry). */
export interface Liveness {
  current(): Owner | undefined;
  holds(epoch: number): boolean;
  /** Since when schedulers have run without a break: events due before then may have been missed. */
  servedSince(): Date;
}

export interface DeliveryWorkerDeps {
  store: EventStore;
  sender: Sender;
  liveness: Liveness;
  capacity: Capacity;
  shares: Shares;
  /** Poked when calls of a team or destination at its share end, so its waiting events are claimed. */
  backlog: Wakeup;
  /** Told when a recorded call began a destination's hold, so that it is released when it ends. */
  holdEnds: Pick<HoldEnds, 'holdBegan'>;
  writer: OutcomeWriter;
  metrics: DeliveryMetrics;
  logger: Logger;
  options: DeliveryWorkerOptions;
  /** Spans of the attempts; undefined (tracing off) costs the delivery path nothing. */
  tracing?: AttemptTracing | undefined;
}

type Claim = (options: ClaimOptions) => Promise<ClaimedAttempt[]>;
interface ClaimResult {
  /** The claim may have left due events: it took its limit or filled a room. */
  more: boolean;
  /** It took as many events as it had places: more may be due once places free. */
  tookAllPlaces: boolean;
}

const earlierOf = (a: Date, b = a) => (a < b ? a : b);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GIVE_UP_AFTER_MS = 10_000;

/**
 * Claims due events within the process's capacity and the teams' and destinations' shares, and
 * starts each at its time ({@link AttemptDelivery} makes the call and hands its outcome to the writer).
 */
export class DeliveryWorker {
  /**
   * Claims run one at a time in each of two lines, so that each sees the shares the previous one
   * took: the slots' (what falls due now), never behind a backlog's claim, and the backlog's. A
   * claim of one line may lease on shares a claim of the other is taking too: then more calls wait
   * for places ({@link WaitingStarts}), none more start.
   */
  readonly #claiming: Record<ClaimLine, Promise<unknown>> = {
    due: Promise.resolve(),
    backlog: Promise.resolve(),
  };
  readonly #waiting: WaitingStarts;
  readonly #clock = new DatabaseClock();
  readonly #attempts: AttemptDelivery;
  readonly #nudges = new SlotNudges();

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.#waiting = new WaitingStarts(deps.shares);
    this.#attempts = new AttemptDelivery(deps, this.#waiting);
  }

  /**
   * Delivers the events of the slot `[from, until)`, each as soon as it is due, until `until` has
   * passed with nothing left in it that is not due yet, or `stopping` is aborted. Due events left
   * for lack of a share are the backlog's. Resolves when its deliveries are recorded; returns false
   * when it stopped early with work possibly left.
   */
  async deliverSlot(from: Date, until: Date, stopping: AbortSignal): Promise<boolean> {
    if (isStaleSlot(until, Date.now())) {
      this.deps.backlog.poke();
      return true;
    }
    const inFlight = new Set<Promise<void>>();
    const slot = slotOf(from);
    const nudge = this.#nudges.open(slot);
    try {
      return await this.#slotLoop(from, until, stopping, inFlight, nudge);
    } finally {
      this.#nudges.close(slot, nudge);
      await Promise.all(inFlight);
    }
  }

  /**
   * An event was written to fall due almost at once in `slot`: a loop of that slot running here
   * claims at once rather than at its next poll; where none runs, the backlog line claims ahead.
   */
  dueSoon(slot: number): void {
    if (!this.#nudges.nudge(slot)) this.deps.backlog.pokeAhead();
  }

  async #slotLoop(
    from: Date,
    until: Date,
    stopping: AbortSignal,
    inFlight: Set<Promise<void>>,
    nudge: SlotNudge,
  ): Promise<boolean> {
    const { pollMs, claimAheadMs: aheadMs } = this.deps.options;
    // A slot's claim reads its oldest due events first. After a claim that filled a room, or with
    // the process full, those are a busy team's and would hide the other teams': the backlog's
    // claim takes each team's oldest in turn, fewest calls held first (the `slow` and `shares`
    // scenarios). From when schedulers began serving: a downtime's backlog is the backlog line's
    // (`catch-up`: p99 9.2 s with it, 127 ms without); but from the slot's start only, a team's
    // leftovers of an earlier second waited for the backlog line's tenth of the places, which a full
    // process never frees at once (`slow` at SCALE=1: 25-61 s). It claims ahead as well: taken only
    // once due, a punctual team's events started tens of ms late (`shares`, bench/README.md).
    let crowded = false;
    const claim: Claim = (options) =>
      crowded || this.#full()
        ? this.deps.store.claimBacklog({ ...options, from: earlierOf(from, options.servedSince), aheadMs })
        : this.deps.store.claimDue({ ...options, from, before: until, aheadMs });
    while (!stopping.aborted) {
      try {
        const claimedFrom = performance.now();
        nudge.reset();
        // Claim again after a claim that may have left due events.
        const { more } = await this.#claim(claim, 'due', inFlight);
        crowded = more;
        if (more) continue;
        // What the claim took reaches `aheadMs` past when it was sent, not past now: the events
        // falling due since are the next claim's, and its wake counts from after this read.
        const takenMs = Math.max(0, aheadMs - (performance.now() - claimedFrom));
        // Undefined when not asked (its answer could not move the wake); null when none is left.
        const next = nextDueMatters(takenMs, Date.now(), until, this.deps.options)
          ? await this.deps.store.nextDueAt(from, until, takenMs)
          : undefined;
        const now = Date.now();
        if (next === null && now >= until.getTime()) return true;
        const wake = Math.min(next ? next.getTime() - aheadMs / 2 : until.getTime(), now + pollMs);
        // Woken early by a place freed only while due events may wait for one: the others wait
        // for their time, and the backlog claims what a freed place lets go.
        if (wake > now) await (crowded ? this.deps.shares.whenFreed(wake - now) : nudge.wait(wake - now));
      } catch (error) {
        // The database is unreachable: keep trying for a while; the backlog picks up the rest.
        this.deps.logger.warn({ err: error }, 'could not claim due events');
        if (Date.now() > until.getTime() + GIVE_UP_AFTER_MS) return true;
        await sleep(500);
      }
    }
    return false;
  }

  /**
   * Claims due events of any slot — those left for lack of a share, released or recovered ones,
   * those whose slot job was lost — at every tick or poke of the backlog, until `stopping` aborts;
   * after a poke for an event due soon ({@link dueSoon}), also those due within the look-ahead.
   */
  async runBacklog(stopping: AbortSignal): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    let aheadMs = 0;
    const claim: Claim = (options) => this.deps.store.claimBacklog({ ...options, aheadMs });
    try {
      while (!stopping.aborted) {
        aheadMs = (await this.deps.backlog.wait(stopping)) ? this.deps.options.claimAheadMs : 0;
        try {
          let full = true;
          while (full && !stopping.aborted) {
            full = (await this.#claim(claim, 'backlog', inFlight)).tookAllPlaces;
          }
        } catch (error) {
          this.deps.logger.warn({ err: error }, 'could not claim the backlog');
        }
      }
    } finally {
      await Promise.all(inFlight);
    }
  }

  /**
   * Whether calls claimed hold all but less than a batch of places: the process is full. Not the
   * places this claim got: a backlog claim running beside it holds up to a batch for its time.
   */
  #full(): boolean {
    const { capacity, options } = this.deps;
    return capacity.unheld < Math.min(options.claimBatch, capacity.size);
  }

  /** Claims what the shares allow; `more` when it may have left due events (it filled a room). */
  async #claim(claim: Claim, chain: ClaimLine, inFlight: Set<Promise<void>>): Promise<ClaimResult> {
    // A claim per place freed would cost a claim per delivery while the process is full.
    const { capacity, options } = this.deps;
    const kept = chain === 'backlog' ? placesKeptForDue(capacity.size) : 0;
    await capacity.room(kept + Math.min(options.claimBatch, fewestPlaces(capacity.size)));
    const claimed = this.#claiming[chain].then(() => this.#claimNow(claim, chain, inFlight, kept));
    this.#claiming[chain] = claimed.catch(() => undefined);
    return claimed;
  }

  async #claimNow(
    claim: Claim,
    chain: ClaimLine,
    inFlight: Set<Promise<void>>,
    kept: number,
  ): Promise<ClaimResult> {
    const { capacity, options, liveness, shares, metrics } = this.deps;
    const owner = liveness.current();
    if (!owner) throw new Error('not claiming: this process does not hold its liveness lock');
    const reserved = capacity.reserve(Math.min(options.claimBatch, capacity.free - kept));
    if (reserved === 0) {
      capacity.cutShort();
      return { more: true, tookAllPlaces: false };
    }
    let claimed: ClaimedAttempt[] = [];
    const snapshot = shares.snapshot();
    // Taken before the claim is sent: however long the process then stalls, the lease cannot start earlier.
    const started = performance.now();
    const lease = leaseWindow(started, owner.epoch, options);
    try {
      claimed = await claim({
        limit: reserved,
        leaseMs: options.leaseMs,
        leaseToken: randomUUID(),
        owner: owner.id,
        shares: snapshot,
        servedSince: liveness.servedSince(),
      });
      metrics.claimed(chain, performance.now() - started);
    } finally {
      capacity.settle(reserved, claimed.length);
    }
    const dueTimes = this.#clock.dueTimes(claimed, performance.now());
    if (claimed.length > 0 && claimed.length < options.claimBatch) capacity.cutShort();
    for (const [attempt, dueAt] of dueTimes) {
      const delivery = this.#waiting
        .placeWhenDue(attempt, dueAt, attempt.scheduledAt.getTime())
        .then((placed) => (placed ? this.#attempts.placed(attempt, lease) : this.#attempts.handBack(attempt)))
        .finally(() => {
          // Shares free when calls end, the capacity when outcomes are recorded: either may be what
          // due events wait for.
          if (capacity.release()) this.#roomFreed();
          inFlight.delete(delivery);
        });
      inFlight.add(delivery);
    }
    return { more: filledARoom(claimed, snapshot, reserved), tookAllPlaces: claimed.length === reserved };
  }

  /** Wakes the claims waiting for room: the slots' and the backlog's. */
  #roomFreed(): void {
    this.deps.shares.wake();
    this.deps.backlog.poke();
  }

  /**
   * Recovers attempts whose lease expired: re-delivered (at least once), except one that keeps
   * losing its worker, which is recorded as a failed attempt (and retried per its policy).
   */
  recoverExpiredLeases(deadOwners: number[] = []): Promise<number> {
    return this.#attempts.recoverExpiredLeases(deadOwners);
  }
}
