import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics.js';
import type { AttemptRecord, EventStore } from '../ports.js';

interface Pending {
  record: AttemptRecord;
  /** When it was queued, on the monotonic clock. */
  queuedAt: number;
  /** After this (on the monotonic clock, `performance.now()`) the lease is gone: writing would be refused anyway. */
  deadline: number;
  done: () => void;
}

export interface OutcomeWriterOptions {
  maxBatch: number;
  /** How long a batch's first outcome waits for more to join it. */
  maxDelayMs: number;
  /** The same while {@link placesWanted}: a claim waits for the places queued outcomes hold until written. */
  wantedDelayMs?: number;
  placesWanted?: () => boolean;
}

/**
 * Writes attempt outcomes in batches (one statement per batch), one batch at a time: a batch starts
 * once its first outcome has waited the delay, or it is full, so that outcomes arriving while one is
 * written gather into the next (group commit) and batches grow as the database slows. A failed write
 * is retried with backoff for as long as the leases hold; past that the outcome is dropped and the
 * reconcile job re-delivers the attempt (at least once, never lost).
 */
export class OutcomeWriter {
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** When {@link #timer} fires, on the monotonic clock. */
  #timerAt = 0;
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
      this.#queue.push({ record, queuedAt: performance.now(), deadline, done });
      this.#schedule();
    });
  }

  /** A claim began to wait for places: what is queued waits no longer than `wantedDelayMs`. */
  hurry(): void {
    this.#schedule();
  }

  /** Writes everything queued, without waiting for the delay. */
  async flush(): Promise<void> {
    while (this.#writing || this.#queue.length > 0) {
      this.#start();
      await this.#writing;
    }
  }

  /** While a batch is being written, the queue waits for it; otherwise for a full batch or the delay. */
  #schedule(): void {
    const first = this.#queue[0];
    if (this.#writing || !first) return;
    if (this.#queue.length >= this.options.maxBatch) {
      this.#start();
      return;
    }
    const { maxDelayMs, wantedDelayMs = maxDelayMs, placesWanted } = this.options;
    const at = first.queuedAt + (placesWanted?.() ? wantedDelayMs : maxDelayMs);
    if (this.#timer && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#start(), Math.max(0, at - performance.now()));
  }

  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing || this.#queue.length === 0) return;
    this.#writing = this.#write(this.#queue.splice(0, this.options.maxBatch)).finally(() => {
      this.#writing = undefined;
      this.#schedule();
    });
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
