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
 * Retry-After), not up to a reconcile later: after each release, and after a hold began here, it
 * looks up when the next hold ends and, when that comes before the next reconcile, releases then.
 * One timer at a time.
 */
export class HoldEnds {
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #looking = false;
  #lookAgain = false;
  /** Lookups started: only the latest one's answer sets the timer. */
  #lookups = 0;

  constructor(private readonly deps: HoldEndsDeps) {}

  /**
   * Releases the holds that ended, then watches for the next end. A failed lookup goes to `onError`:
   * the reconcile's later steps (timers, the crons' top-up) do not wait on it.
   */
  async release(): Promise<void> {
    if ((await this.deps.store.releaseDestinations()) > 0) this.deps.onReleased();
    await this.#watchNextEnd().catch(this.deps.onError);
  }

  /**
   * A hold may have begun (a Retry-After was recorded): watches for its end. One lookup at a time;
   * holds recorded meanwhile are seen by one more.
   */
  holdBegan(): void {
    if (this.#looking) {
      this.#lookAgain = true;
      return;
    }
    this.#looking = true;
    void this.#watchNextEnd()
      .catch(this.deps.onError)
      .finally(() => {
        this.#looking = false;
        if (!this.#lookAgain) return;
        this.#lookAgain = false;
        this.holdBegan();
      });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #watchNextEnd(): Promise<void> {
    const lookup = ++this.#lookups;
    const inMs = await this.deps.store.nextReleaseInMs();
    // An earlier lookup's answer may predate a hold a later one saw.
    if (lookup !== this.#lookups) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || inMs === null || inMs >= this.deps.reconcileEveryMs) return;
    // The end is read on the database's clock and the timer starts after the reply: it never fires early.
    this.#timer = setTimeout(
      () => void this.release().catch(this.deps.onError),
      Math.ceil(Math.max(0, inMs)) + 1,
    );
    this.#timer.unref();
  }
}
