import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { MAX_CLAIMS, interruptedOutcome, isMissed, missedOutcome, planRecord } from '../attempt.rules.js';
import { type LeaseWindow, leaseWindow } from '../lease.rules.js';
import type { Owner } from '../liveness/owner-registry.js';
import type { DeliveryMetrics } from '../metrics.js';
import type { ClaimedAttempt, EventStore, Sender, WebhookOutcome } from '../ports.js';
import type { Capacity } from './capacity.js';
import type { OutcomeWriter } from './outcome-writer.js';

export interface DeliveryWorkerOptions {
  /** How long a claim holds: longer than the webhook timeout plus the time to record the outcome. */
  leaseMs: number;
  /** The longest a webhook call lasts. */
  timeoutMs: number;
  /** Most events claimed by one query. */
  claimBatch: number;
  /** How often a running slot looks for events added to it after it started. */
  pollMs: number;
  missedToleranceMs: number;
}

/** Whether this process is alive as far as the others can tell (see OwnerRegistry). */
export interface Liveness {
  current(): Owner | undefined;
  holds(epoch: number): boolean;
}

export interface DeliveryWorkerDeps {
  store: EventStore;
  sender: Sender;
  liveness: Liveness;
  capacity: Capacity;
  writer: OutcomeWriter;
  metrics: DeliveryMetrics;
  logger: Logger;
  options: DeliveryWorkerOptions;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GIVE_UP_AFTER_MS = 10_000;
/** Most attempts one lease recovery handles. */
export const RECOVERY_BATCH = 500;

/** Claims due events, sends each at its time, and hands the outcomes to the writer. */
export class DeliveryWorker {
  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /**
   * Delivers the events due before `until`, each as soon as it is due, until `until` has passed
   * with nothing left before it, or `stopping` is aborted. Resolves when its deliveries are recorded;
   * returns false when it stopped early with work possibly left.
   */
  async deliverUntil(until: Date, stopping: AbortSignal): Promise<boolean> {
    const inFlight = new Set<Promise<void>>();
    try {
      return await this.#loop(until, stopping, inFlight);
    } finally {
      await Promise.all(inFlight);
    }
  }

  async #loop(until: Date, stopping: AbortSignal, inFlight: Set<Promise<void>>): Promise<boolean> {
    const { pollMs, claimBatch } = this.deps.options;
    while (!stopping.aborted) {
      try {
        if ((await this.#claim(until, inFlight)) === claimBatch) continue;
        const now = Date.now();
        const next = await this.deps.store.nextDueAt(until);
        if (!next && now >= until.getTime()) return true;
        const wake = Math.min(next ? next.getTime() : until.getTime(), now + pollMs);
        if (wake > now) await sleep(wake - now);
      } catch (error) {
        // The database is unreachable: keep trying for a while; the reconcile job sweeps up the rest.
        this.deps.logger.warn({ err: error }, 'could not claim due events');
        if (Date.now() > until.getTime() + GIVE_UP_AFTER_MS) return true;
        await sleep(500);
      }
    }
    return false;
  }

  async #claim(until: Date, inFlight: Set<Promise<void>>): Promise<number> {
    const { store, capacity, options, liveness } = this.deps;
    await capacity.room();
    const owner = liveness.current();
    if (!owner) throw new Error('not claiming: this process does not hold its liveness lock');
    const reserved = capacity.take(options.claimBatch);
    let claimed: ClaimedAttempt[] = [];
    // Taken before the claim is sent: however long the process then stalls, the lease cannot start earlier.
    const lease = leaseWindow(performance.now(), owner.epoch, options);
    try {
      claimed = await store.claimDue({
        before: until,
        limit: reserved,
        leaseMs: options.leaseMs,
        leaseToken: randomUUID(),
        owner: owner.id,
      });
    } finally {
      capacity.give(reserved - claimed.length);
    }
    for (const attempt of claimed) {
      const delivery = this.#deliver(attempt, lease).finally(() => {
        capacity.give(1);
        inFlight.delete(delivery);
      });
      inFlight.add(delivery);
    }
    return claimed.length;
  }

  /** Never rejects: an unexpected error leaves the attempt to its lease (re-delivered after expiry). */
  async #deliver(attempt: ClaimedAttempt, lease: LeaseWindow): Promise<void> {
    try {
      await this.#send(attempt, lease);
    } catch (error) {
      this.deps.logger.error(
        { err: error, eventId: attempt.id, attempt: attempt.attempt },
        'delivery failed unexpectedly',
      );
    }
  }

  async #send(attempt: ClaimedAttempt, lease: LeaseWindow): Promise<void> {
    const { options, metrics, liveness } = this.deps;
    const now = new Date();
    if (isMissed(attempt.scheduledAt, now, options.missedToleranceMs)) {
      metrics.delivered('missed', 0);
      await this.#record(attempt, missedOutcome(attempt, now, options.missedToleranceMs), lease, false);
      return;
    }
    // Past this, another worker may already have the attempt: it is handed back, never sent (decision 23).
    const mayStart = () => liveness.holds(lease.epoch);
    if (performance.now() > lease.sendBy || !mayStart()) {
      await this.#release(attempt);
      return;
    }
    metrics.inFlight.inc();
    let outcome: WebhookOutcome | undefined;
    try {
      outcome = await this.deps.sender.send(
        {
          url: attempt.webhookUrl,
          method: attempt.method,
          headers: attempt.headers,
          payload: attempt.payload,
          webhookId: attempt.originalId,
          signingSecrets: attempt.signingSecrets,
        },
        mayStart,
      );
    } finally {
      metrics.inFlight.dec();
    }
    if (!outcome) {
      await this.#release(attempt);
      return;
    }
    metrics.delivered(
      outcome.ok ? 'success' : 'failure',
      outcome.startedAt.getTime() - attempt.scheduledAt.getTime(),
    );
    await this.#record(attempt, outcome, lease, true);
  }

  async #record(
    attempt: ClaimedAttempt,
    outcome: WebhookOutcome,
    lease: Pick<LeaseWindow, 'recordBy'>,
    executed: boolean,
  ): Promise<void> {
    const record = planRecord(attempt, outcome, randomUUID, { executed });
    await this.deps.writer.add(record, lease.recordBy);
  }

  async #release(attempt: ClaimedAttempt): Promise<void> {
    this.deps.logger.warn(
      { eventId: attempt.id, attempt: attempt.attempt },
      'released an attempt whose lease ran out before its call could start',
    );
    await this.deps.store.release([attempt]);
  }

  /**
   * Recovers attempts whose lease expired: re-delivered (at least once), except one that keeps
   * losing its worker, which is recorded as a failed attempt (and retried per its policy).
   */
  async recoverExpiredLeases(deadOwners: number[] = []): Promise<number> {
    const { store, options } = this.deps;
    const expired = await store.expiredLeases(RECOVERY_BATCH, deadOwners);
    const requeue = expired.filter((attempt) => attempt.claimCount < MAX_CLAIMS);
    const givingUp = expired.filter((attempt) => attempt.claimCount >= MAX_CLAIMS);
    if (requeue.length > 0) await store.release(requeue);
    const lease = { recordBy: performance.now() + options.leaseMs };
    await Promise.all(
      givingUp.map((attempt) => this.#record(attempt, interruptedOutcome(attempt, new Date()), lease, true)),
    );
    if (expired.length > 0) {
      this.deps.logger.warn(
        { requeued: requeue.length, failed: givingUp.length },
        'recovered expired delivery leases',
      );
    }
    return expired.length;
  }
}
