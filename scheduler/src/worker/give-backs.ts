import type { Logger } from 'pino';
import type { ClaimedAttempt, EventStore } from '../ports.js';

/** An attempt as the queue knows its lease: giving it back needs the token it was claimed with. */
export type Leased = Pick<ClaimedAttempt, 'id' | 'leaseToken'>;

const RETRY_MS = { first: 250, max: 1000 };

/**
 * Gives back to the queue attempts this process claimed and will not send. One the database does
 * not take back now (an outage) is offered again until it does, rather than waiting for its lease to
 * expire: after an outage it goes out at once, not a lease later. Offering it again is always safe:
 * the queue takes an attempt back only under the token it was claimed with.
 */
export class GiveBacks {
  readonly #waiting = new Map<string, Leased>();
  #timer: NodeJS.Timeout | undefined;
  #retryMs = RETRY_MS.first;

  constructor(
    private readonly release: EventStore['release'],
    private readonly given: () => void,
    private readonly logger: Logger,
  ) {}

  /** Gives `attempts` back; never rejects. */
  async giveBack(attempts: Leased[]): Promise<void> {
    try {
      await this.release(attempts);
      this.given();
    } catch (error) {
      this.logger.warn(
        { err: error, eventIds: attempts.map((attempt) => attempt.id) },
        'could not give back claimed attempts; trying again',
      );
      for (const attempt of attempts) this.#waiting.set(attempt.id, attempt);
      this.#retryLater();
    }
  }

  /** Attempts not yet taken back. */
  get waiting(): number {
    return this.#waiting.size;
  }

  #retryLater(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.#retry(), this.#retryMs);
    this.#timer.unref();
  }

  async #retry(): Promise<void> {
    this.#timer = undefined;
    const attempts = [...this.#waiting.values()];
    try {
      await this.release(attempts);
    } catch {
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.max);
      this.#retryLater();
      return;
    }
    for (const attempt of attempts) {
      // Not one given back again meanwhile under another lease.
      if (this.#waiting.get(attempt.id) === attempt) this.#waiting.delete(attempt.id);
    }
    this.#retryMs = RETRY_MS.first;
    this.logger.info({ given: attempts.length }, 'gave back the claimed attempts held since an error');
    this.given();
    // Given back meanwhile, after this retry had read the list.
    if (this.#waiting.size > 0) this.#retryLater();
  }
}
