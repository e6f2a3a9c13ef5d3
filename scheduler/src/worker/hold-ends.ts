import type { EventStore } from '../ports.js';

export interface HoldEndsDeps {
  store: Pick<EventStore, 'releaseDestinations' | 'nextReleaseInMs'>;
  /** Called when events were released: the backlog's claim takes them. */
  onReleased: () => void;
  onError: (error: unknown) => void;
  /** How often the reconcile releases anyway: ends later than this are left to it. */
  reconcileEveryMs: number;
}

/**
 * Lets destinations take calls again when their holds end (an open circuit's cool-down, a
 * Retry-After), not up to a reconcile later: each release looks up when the next hold ends and,
 * when that comes before the next reconcile, releases again then. One timer at a time.
 */
export class HoldEnds {
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly deps: HoldEndsDeps) {}

  /** Releases the holds that ended, then watches for the next end. */
  async release(): Promise<void> {
    const { store, onReleased, onError, reconcileEveryMs } = this.deps;
    if ((await store.releaseDestinations()) > 0) onReleased();
    const inMs = await store.nextReleaseInMs();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || inMs === null || inMs >= reconcileEveryMs) return;
    // The end is read on the database's clock and the timer starts after the reply: it never fires early.
    this.#timer = setTimeout(() => void this.release().catch(onError), Math.ceil(Math.max(0, inMs)) + 1);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
