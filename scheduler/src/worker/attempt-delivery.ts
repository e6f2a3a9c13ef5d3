import type { Logger } from 'pino';
import { MAX_CLAIMS, interruptedOutcome, isMissed, missedOutcome, planRecord } from '../attempt.rules.js';
import { newEventId } from '../event-id.js';
import { callOf } from '../event-request.js';
import type { LeaseWindow } from '../lease.rules.js';
import type { DeliveryMetrics } from '../metrics.js';
import type { AttemptTracing, ClaimedAttempt, EventStore, Sender, WebhookOutcome } from '../ports.js';
import { GiveBacks } from './give-backs.js';
import type { HoldEnds } from './hold-ends.js';
import type { OutcomeWriter } from './outcome-writer.js';
import type { Shares } from './shares.js';
import { type CallAnswer, answerOf } from './untried-origins.js';
import type { WaitingStarts } from './waiting-starts.js';
import type { Wakeup } from './wakeup.js';

/** Most attempts one lease recovery handles. */
export const RECOVERY_BATCH = 500;

export interface AttemptDeliveryDeps {
  store: Pick<EventStore, 'release' | 'expiredLeases'>;
  sender: Sender;
  liveness: {
    holds(epoch: number): boolean;
    servedSince(): Date;
  };
  shares: Shares;
  /** Poked when calls end at a share, and when attempts are handed back or recovered. */
  backlog: Wakeup;
  /** Told when a recorded call began a destination's hold (a Retry-After). */
  holdEnds: Pick<HoldEnds, 'holdBegan'>;
  writer: OutcomeWriter;
  metrics: DeliveryMetrics;
  logger: Logger;
  options: { leaseMs: number; missedToleranceMs: number };
  tracing?: AttemptTracing | undefined;
}

/**
 * What becomes of a claimed attempt (DeliveryWorker claims them): its call, its outcome handed to
 * the writer, or its hand-back; and the recovery of attempts whose lease expired.
 */
export class AttemptDelivery {
  readonly #giveBacks: GiveBacks;

  constructor(
    private readonly deps: AttemptDeliveryDeps,
    private readonly waiting: WaitingStarts,
  ) {
    this.#giveBacks = new GiveBacks(
      (attempts) => deps.store.release(attempts),
      () => deps.backlog.poke(),
      deps.logger,
    );
  }

  /** Delivers an attempt that holds its place in the shares. Never rejects. */
  placed(attempt: ClaimedAttempt, lease: LeaseWindow): Promise<void> {
    const placedAt = performance.now();
    // The shares count calls at their receivers: a place is free once the call has ended, while
    // the process's capacity is held until its outcome is recorded.
    const callEnded = (answer?: CallAnswer) => {
      const ended = answer && { answer, ms: performance.now() - placedAt };
      if (this.deps.shares.give(attempt, ended)) this.deps.backlog.poke();
      this.waiting.drain(attempt);
      this.waiting.startDue();
    };
    return this.#deliver(attempt, lease, callEnded);
  }

  /** Gives back a claimed attempt no call in flight here would make room for. Never rejects. */
  handBack(attempt: ClaimedAttempt): Promise<void> {
    return this.#giveBacks.giveBack([attempt]);
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
    if (requeue.length > 0) {
      await store.release(requeue);
      this.deps.backlog.poke();
    }
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

  /** Never rejects: an unexpected error leaves the attempt to its lease (re-delivered after expiry). */
  async #deliver(
    attempt: ClaimedAttempt,
    lease: LeaseWindow,
    callEnded: (answer?: CallAnswer) => void,
  ): Promise<void> {
    let ended = false;
    const end = (answer?: CallAnswer) => {
      if (ended) return;
      ended = true;
      callEnded(answer);
    };
    try {
      await this.#send(attempt, lease, end);
    } catch (error) {
      this.deps.logger.error(
        { err: error, eventId: attempt.id, attempt: attempt.attempt },
        'delivery failed unexpectedly',
      );
    } finally {
      end();
    }
  }

  async #send(
    attempt: ClaimedAttempt,
    lease: LeaseWindow,
    callEnded: (answer?: CallAnswer) => void,
  ): Promise<void> {
    const { options, metrics, liveness } = this.deps;
    const now = new Date();
    if (isMissed(attempt.scheduledAt, options.missedToleranceMs, liveness.servedSince())) {
      metrics.delivered('missed', 0);
      // No call: its place goes to the next event at once, not after the outcome is written.
      callEnded();
      await this.#record(attempt, missedOutcome(attempt, now, options.missedToleranceMs), lease, false);
      return;
    }
    // Past this, another worker may already have the attempt: it is handed back, never sent (docs/reference/behaviour.md#at-least-once).
    const mayStart = () => liveness.holds(lease.epoch);
    if (performance.now() > lease.sendBy || !mayStart()) {
      await this.#release(attempt);
      return;
    }
    metrics.inFlight.inc();
    let outcome: WebhookOutcome | undefined;
    let answeredAgain = false;
    const call = (traceHeaders?: Record<string, string>) =>
      this.deps.sender.send(callOf(attempt, traceHeaders), mayStart);
    try {
      outcome = this.deps.tracing ? await this.deps.tracing.around(attempt, call) : await call();
    } finally {
      metrics.inFlight.dec();
      // A call the SSRF guard refused never reached the origin.
      const answer = outcome && !outcome.permanent ? answerOf(outcome) : undefined;
      answeredAgain = answer === 'answered' && this.deps.shares.isDown(attempt);
      callEnded(answer);
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
    // Its outcome may have closed the origin's circuit and let its held events go: claim them now,
    // not at the backlog's next tick.
    if (answeredAgain) this.deps.backlog.poke();
  }

  async #record(
    attempt: ClaimedAttempt,
    outcome: WebhookOutcome,
    lease: Pick<LeaseWindow, 'recordBy'>,
    executed: boolean,
  ): Promise<void> {
    const record = planRecord(attempt, outcome, newEventId, { executed });
    await this.deps.writer.add(record, lease.recordBy);
    if (record.call?.retryAfter) this.deps.holdEnds.holdBegan();
  }

  async #release(attempt: ClaimedAttempt): Promise<void> {
    this.deps.logger.warn(
      { eventId: attempt.id, attempt: attempt.attempt },
      'gives back an attempt it may no longer start: its lease ran out or its liveness lock was lost',
    );
    await this.#giveBacks.giveBack([attempt]);
  }
}
