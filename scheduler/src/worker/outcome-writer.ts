import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics.js';
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
 * Writes attempt outcomes in batches (one statement per batch), one batch at a time: outcomes that
 * arrive while a batch is being written make the next one (group commit), so batches grow as the
 * database slows instead of queueing up small ones. A failed write is retried with backoff for as
 * long as the leases hold; past that the outcome is dropped and the reconcile job re-delivers the
 * attempt (at least once, never lost).
 */
export class OutcomeWriter {
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;

  constructor(
    private readonly store: Pick<EventStore, 'record'>,
    private readonly logger: Logger,
    private readonly options: OutcomeWriterOptions,
    private readonly metrics?: Pick<DeliveryMetrics, 'wrote'>,
  ) {}

  /** Queues an outcome; resolves once it is written or dropped. */
  add(record: AttemptRecord, deadline: number): Promise<void> {
    return new Promise<void>((done) => {
      this.#queue.push({ record, deadline, done });
      this.#schedule();
    });
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    this.#start();
    await this.#writing;
  }

  /** While a batch is being written, the queue waits for it; otherwise for a full batch or the delay. */
  #schedule(): void {
    if (this.#writing || this.#queue.length === 0) return;
    if (this.#queue.length >= this.options.maxBatch) this.#start();
    else this.#timer ??= setTimeout(() => this.#start(), this.options.maxDelayMs);
  }

  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing) return;
    this.#writing = this.#writeQueued().finally(() => {
      this.#writing = undefined;
      this.#schedule();
    });
  }

  async #writeQueued(): Promise<void> {
    while (this.#queue.length > 0) await this.#write(this.#queue.splice(0, this.options.maxBatch));
  }

  async #write(batch: Pending[]): Promise<void> {
    let backoff = 50;
    let live = batch;
    for (;;) {
      try {
        const started = performance.now();
        await this.store.record(live.map((item) => item.record));
        this.metrics?.wrote(performance.now() - started, live.length);
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
