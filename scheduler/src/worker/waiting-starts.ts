import { type Holder, pairKey } from './holders.js';
import type { Shares } from './shares.js';

interface Waiting {
  holder: Holder;
  placed: (started: boolean) => void;
}

/**
 * Claimed calls waiting for a place of their team at their destination (leased ahead, see
 * {@link Shares}): each starts as soon as a call in flight ends and frees its place, with no claim in
 * between; among the teams at a destination, the one holding fewest calls first; within a team, in
 * the order claimed.
 */
export class WaitingStarts {
  /** By team and destination. */
  readonly #queues = new Map<string, Waiting[]>();
  /** The keys of the queues by team and by destination: those a call that ends may free a place for. */
  readonly #byTeam = new Map<string, Set<string>>();
  readonly #byOrigin = new Map<string, Set<string>>();
  /** The waits of calls claimed ahead, by the time they are scheduled for; `at` when they are due. */
  readonly #waits = new Map<number, { at: number; reached: Promise<void>; reach: () => void }>();
  /** No wait in {@link #waits} is due before this. */
  #earliest = Number.POSITIVE_INFINITY;

  constructor(private readonly shares: Shares) {}

  /**
   * Resolves true once the call holds its place ({@link Shares.take}), false when no call in flight
   * would free one here: it is then to be handed back to the queue.
   */
  place(holder: Holder): Promise<boolean> {
    const key = pairKey(holder);
    const queue = this.#queues.get(key);
    if (!queue) {
      const start = this.shares.startable(holder);
      if (start === 'now') {
        this.shares.take(holder);
        return Promise.resolve(true);
      }
      if (start === 'back') return Promise.resolve(false);
    }
    return new Promise((placed) => {
      this.shares.queue(holder);
      if (!queue) {
        this.#queues.set(key, [{ holder, placed }]);
        addTo(this.#byTeam, holder.teamId, key);
        addTo(this.#byOrigin, holder.origin, key);
        return;
      }
      queue.push({ holder, placed });
      this.drain(holder);
    });
  }

  /**
   * As {@link place}, once `dueAt` (on `performance.now()`'s clock) has come. Claimed ahead of its
   * time, the call counts meanwhile with those waiting for a place, so that the next claims leave
   * it room; its rate and its place are taken when it may start. `scheduledAt` (epoch ms) groups
   * the calls of one time, whatever claim took them: a call due already still starts after those
   * of its time that an earlier claim set waiting.
   */
  async placeWhenDue(holder: Holder, dueAt: number, scheduledAt = dueAt): Promise<boolean> {
    const now = performance.now();
    if (dueAt > now || this.#waits.has(scheduledAt)) {
      this.shares.queue(holder);
      const reached = this.#at(scheduledAt, dueAt);
      if (dueAt <= now) this.startDue(now);
      await reached;
      this.shares.unqueue(holder);
    }
    return this.place(holder);
  }

  /**
   * One wait per scheduled time: the calls of the same time take their places in the order they
   * came, as if claimed together. Each their own timer, rounded to milliseconds, could start them in
   * any order; and a later claim's reply, bounding the database's clock more tightly, gives the
   * same time an earlier `dueAt`: its calls would start before those of the claims before it, which
   * chose theirs in turns by team (`fairness.int.test.ts`, "calls per destination": 3 of 4 first
   * calls from one team). The wait ends at the earliest `dueAt` given for its time.
   */
  #at(scheduledAt: number, dueAt: number): Promise<void> {
    let waiting = this.#waits.get(scheduledAt);
    if (waiting && dueAt >= waiting.at) return waiting.reached;
    if (!waiting) {
      let reach = () => {};
      const reached = new Promise<void>((resolve) => (reach = resolve));
      waiting = { at: dueAt, reached, reach };
      this.#waits.set(scheduledAt, waiting);
    }
    waiting.at = dueAt;
    this.#earliest = Math.min(this.#earliest, dueAt);
    void until(dueAt).then(() => this.#reach(scheduledAt, dueAt));
    return waiting.reached;
  }

  /**
   * Starts the waits whose time has come without waiting for their timers. Called as calls end: a
   * loop busy with other calls' answers runs its timers late (bench/destinations `shares`: a
   * punctual team's calls started p95 8–15 ms late while another team drained 20,000).
   */
  startDue(now = performance.now()): void {
    if (now < this.#earliest) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [scheduledAt, waiting] of this.#waits) {
      if (waiting.at <= now) this.#reach(scheduledAt, waiting.at);
      else earliest = Math.min(earliest, waiting.at);
    }
    this.#earliest = earliest;
  }

  /** Ends the wait for `scheduledAt` if `dueAt` is still its time: a later claim may have moved it sooner. */
  #reach(scheduledAt: number, dueAt: number): void {
    const waiting = this.#waits.get(scheduledAt);
    if (waiting?.at !== dueAt) return;
    this.#waits.delete(scheduledAt);
    waiting.reach();
  }

  /**
   * A call of `freed` ended (its team's place at its destination is free): starts the waiting calls of
   * its team or destination that have a place now, and hands back those that will not get one.
   */
  drain(freed: Holder): void {
    // Called at the end of every call: with nothing waiting, it costs nothing.
    if (this.#queues.size === 0) return;
    for (;;) {
      let next: { key: string; held: number } | undefined;
      let handedBack = false;
      for (const key of this.#near(freed)) {
        const head = this.#queues.get(key)?.[0];
        if (!head) continue;
        const start = this.shares.startable(head.holder);
        if (start === 'back') {
          this.#shift(key)?.placed(false);
          handedBack = true;
          break;
        }
        const held = this.shares.held(head.holder);
        if (start === 'now' && (!next || held < next.held)) next = { key, held };
      }
      if (handedBack) continue;
      if (!next) return;
      const waiting = this.#shift(next.key);
      if (!waiting) return;
      this.shares.take(waiting.holder);
      waiting.placed(true);
    }
  }

  /** The queues of the team and of the destination of `holder`. */
  #near(holder: Holder): Set<string> {
    return new Set([
      ...(this.#byTeam.get(holder.teamId) ?? []),
      ...(this.#byOrigin.get(holder.origin) ?? []),
    ]);
  }

  #shift(key: string): Waiting | undefined {
    const queue = this.#queues.get(key);
    const waiting = queue?.shift();
    if (waiting) this.shares.unqueue(waiting.holder);
    if (waiting && queue?.length === 0) {
      this.#queues.delete(key);
      removeFrom(this.#byTeam, waiting.holder.teamId, key);
      removeFrom(this.#byOrigin, waiting.holder.origin, key);
    }
    return waiting;
  }
}

/**
 * Resolves once `performance.now()` reaches `at`: a timer counts from the event loop's last tick, so
 * it may fire early.
 */
async function until(at: number): Promise<void> {
  for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}

function addTo(index: Map<string, Set<string>>, name: string, key: string): void {
  const keys = index.get(name);
  if (keys) keys.add(key);
  else index.set(name, new Set([key]));
}

function removeFrom(index: Map<string, Set<string>>, name: string, key: string): void {
  const keys = index.get(name);
  keys?.delete(key);
  if (keys?.size === 0) index.delete(name);
}
