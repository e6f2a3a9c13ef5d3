import type { Logger } from 'pino';
import type { AttemptRecord, EventStore } from '../ports.js';

interface Pending {
  record: AttemptRecord;
  /** After this (on the monotonic clock, `performance.now()`) the lease is gone: writing would be refused anyway. */
  deadline: number;
  done: () => void;
}

export interface OutcomeWriterOptions {
  maxBatch: number;
  maxDelayMs: number;
}

/**
 * Writes attempt outcomes in batches (one statement per batch). A failed write is retried with
 * backoff for as long as the leases hold; past that the outcome is dropped and the reconcile job
 * re-delivers the attempt (at least once, never lost).
 */
export class OutcomeWriter {
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
    private readonly options: OutcomeWriterOptions,
  ) {}

  /** Queues an outcome; resolves once it is written or dropped. */
  add(record: AttemptRecord, deadline: number): Promise<void> {
    return new Promise<void>((done) => {
      this.#queue.push({ record, deadline, done });
      if (this.#queue.length >= this.options.maxBatch) this.#startBatches();
      else this.#timer ??= setTimeout(() => this.#startBatches(), this.options.maxDelayMs);
    });
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    this.#startBatches();
    await this.#writing;
  }

  #startBatches(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    this.#writing = this.#writing.then(() => this.#write(batch));
    if (this.#queue.length >= this.options.maxBatch) this.#startBatches();
    else if (this.#queue.length > 0)
      this.#timer = setTimeout(() => this.#startBatches(), this.options.maxDelayMs);
  }

  async #write(batch: Pending[]): Promise<void> {
    let backoff = 50;
    let live = batch;
    for (;;) {
      try {
        await this.store.record(live.map((item) => item.record));
        break;
      } catch (error) {
        const now = performance.now();
        const expired = live.filter((item) => item.deadline <= now);
        live = live.filter((item) => item.deadline > now);
        if (expired.length > 0) {
          this.logger.error(
            { err: error, dropped: expired.length },
            'dropped outcomes whose lease expired; they will be re-delivered',
          );
          expired.forEach((item) => item.done());
        }
        if (live.length === 0) return;
        this.logger.warn({ err: error, retryInMs: backoff }, 'could not record outcomes; retrying');
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, 2000);
      }
    }
    batch.forEach((item) => item.done());
  }
}
