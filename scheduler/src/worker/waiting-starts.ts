import type { Holder } from './holders.js';
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

  constructor(private readonly shares: Shares) {}

  /**
   * Resolves true once the call holds its place ({@link Shares.take}), false when no call in flight
   * would free one here: it is then to be handed back to the queue.
   */
  place(holder: Holder): Promise<boolean> {
    const key = `${holder.teamId} ${holder.origin}`;
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
        return;
      }
      queue.push({ holder, placed });
      this.drain();
    });
  }

  /** Starts the waiting calls that have a place now; hands back those that will not get one. */
  drain(): void {
    for (;;) {
      let next: { key: string; held: number } | undefined;
      let handedBack = false;
      for (const [key, [head]] of this.#queues) {
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

  #shift(key: string): Waiting | undefined {
    const queue = this.#queues.get(key);
    const waiting = queue?.shift();
    if (queue?.length === 0) this.#queues.delete(key);
    if (waiting) this.shares.unqueue(waiting.holder);
    return waiting;
  }
}
