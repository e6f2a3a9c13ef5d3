import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { OwnerRegistry } from './liveness/owner-registry.js';
import { recoverDeadOwners } from './liveness/recover-dead-owners.js';
import { createDeliveryMetrics } from './metrics.js';
import type { EventStore, Sender } from './ports.js';
import { AgendaTimer } from './timer/agenda-timer.js';
import { SLOT_JOB, type SlotJobData, slotEnd } from './timer/slot-jobs.js';
import { Capacity } from './worker/capacity.js';
import { DeliveryWorker, RECOVERY_BATCH } from './worker/delivery-worker.js';
import { OutcomeWriter } from './worker/outcome-writer.js';

/** Knobs with measured defaults; see bench/README.md. */
export interface SchedulerTuning {
  maxInFlight: number;
  claimBatch: number;
  pollMs: number;
  processEveryMs: number;
  slotConcurrency: number;
  reconcileEveryMs: number;
  /** How often each process looks for dead scheduler processes whose leases it can take back. */
  livenessEveryMs: number;
  /** A pending event this late is swept up by the reconcile job whatever its slot job did. */
  overdueGraceMs: number;
  cronHorizonMs: number;
  writeBatch: number;
  writeDelayMs: number;
}

const DEFAULT_TUNING: SchedulerTuning = {
  maxInFlight: 1000,
  claimBatch: 500,
  pollMs: 25,
  processEveryMs: 50,
  slotConcurrency: 8,
  reconcileEveryMs: 2000,
  livenessEveryMs: 1000,
  overdueGraceMs: 2000,
  cronHorizonMs: 60_000,
  writeBatch: 500,
  writeDelayMs: 5,
};

export interface SchedulerOptions {
  /** Pool for Agenda and slot jobs; the same database as the store. */
  pool: Pool;
  store: EventStore;
  sender: Sender;
  logger: Logger;
  registry: Registry;
  /** Unique per process. */
  name: string;
  webhookTimeoutMs: number;
  missedToleranceMs: number;
  /** A claim lasts the webhook timeout plus this (default 30 s): long enough to record the outcome. */
  leaseGraceMs?: number;
  tuning?: Partial<SchedulerTuning>;
}

/** A running scheduler worker. */
export interface Scheduler {
  start(): Promise<void>;
  /** Stops taking work, lets in-flight deliveries finish and be recorded (bounded by `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
}

/** The delivery side of the service: Agenda as the timer, our rows and leases as the truth. */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const { store, logger, pool } = options;
  const stopping = new AbortController();
  const leaseMs = options.webhookTimeoutMs + (options.leaseGraceMs ?? 30_000);

  const metrics = createDeliveryMetrics(options.registry, () => store.dueBacklog());
  const owners = new OwnerRegistry(pool.options, options.name, logger);
  const capacity = new Capacity(tuning.maxInFlight);
  const writer = new OutcomeWriter(store, logger, {
    maxBatch: tuning.writeBatch,
    maxDelayMs: tuning.writeDelayMs,
  });
  const worker = new DeliveryWorker({
    store,
    sender: options.sender,
    liveness: owners,
    capacity,
    writer,
    metrics,
    logger,
    options: {
      leaseMs,
      timeoutMs: options.webhookTimeoutMs,
      claimBatch: tuning.claimBatch,
      pollMs: tuning.pollMs,
      missedToleranceMs: options.missedToleranceMs,
    },
  });

  const reconcile = async (): Promise<void> => {
    await worker.recoverExpiredLeases();
    await store.topUpCrons(tuning.cronHorizonMs, 200);
    await worker.deliverUntil(new Date(Date.now() - tuning.overdueGraceMs), stopping.signal);
    await pool.query(
      `delete from agenda_jobs where name = $1 and next_run_at is null and locked_at is null
       and coalesce(last_finished_at, failed_at, created_at) < now() - interval '1 hour'`,
      [SLOT_JOB],
    );
  };

  const timer = new AgendaTimer({
    pool,
    name: options.name,
    logger,
    processEveryMs: tuning.processEveryMs,
    slotConcurrency: tuning.slotConcurrency,
    slotLockLifetimeMs: leaseMs,
    reconcileEveryMs: tuning.reconcileEveryMs,
    onSlot: (slot: SlotJobData) => worker.deliverUntil(slotEnd(slot.slot), stopping.signal),
    onReconcile: () =>
      reconcile().catch((error: unknown) => {
        logger.error({ err: error }, 'reconcile failed');
      }),
  });

  // Independent of Agenda: a dead process may hold the reconcile job's lock.
  const sweeps = new Set<Promise<unknown>>();
  const watchOwners = async (): Promise<void> => {
    const recovered = await recoverDeadOwners({
      owners,
      pool,
      logger,
      batch: RECOVERY_BATCH,
      recoverLeases: (dead) => worker.recoverExpiredLeases(dead),
    });
    // They are overdue: deliver them now rather than at the next sweep.
    if (recovered > 0 && !stopping.signal.aborted) {
      const sweep = worker.deliverUntil(new Date(), stopping.signal).finally(() => sweeps.delete(sweep));
      sweeps.add(sweep);
    }
  };
  let watchingNow = false;
  const watchOnce = () => {
    if (watchingNow) return;
    watchingNow = true;
    watchOwners()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'could not recover dead scheduler processes');
      })
      .finally(() => (watchingNow = false));
  };
  let watching: NodeJS.Timeout | undefined;

  return {
    start: async () => {
      await owners.start();
      await timer.start();
      watching = setInterval(watchOnce, tuning.livenessEveryMs);
      watchOnce();
    },
    drain: async (timeoutMs) => {
      stopping.abort();
      clearInterval(watching);
      await timer.drain(timeoutMs);
      await Promise.all(sweeps);
      await writer.flush();
      await options.sender.close();
      await owners.stop();
    },
  };
}
