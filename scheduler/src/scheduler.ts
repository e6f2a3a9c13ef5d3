import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { topUpCrons } from './cron-top-up.js';
import { OwnerRegistry, poolConnection } from './liveness/owner-registry.js';
import { DueSoonListener } from './timer/due-soon-listener.js';
import { recoverDeadOwners } from './liveness/recover-dead-owners.js';
import { createDeliveryMetrics, registerNotifyQueueUsage } from './metrics.js';
import type { AttemptTracing, EventStore, Sender } from './ports.js';
import { AgendaTimer } from './timer/agenda-timer.js';
import { extendTimerHorizon } from './timer/horizon.js';
import type { Timers } from './timer/timers.js';
import { SLOT_JOB, type SlotJobData, slotEnd, slotStart } from './timer/slot-jobs.js';
import { Capacity } from './worker/capacity.js';
import { RECOVERY_BATCH } from './worker/attempt-delivery.js';
import { DeliveryWorker } from './worker/delivery-worker.js';
import { HoldEnds } from './worker/hold-ends.js';
import { OutcomeWriter } from './worker/outcome-writer.js';
import { Shares } from './worker/shares.js';
import { Wakeup } from './worker/wakeup.js';

/** Knobs with measured defaults; see bench/README.md. */
export interface SchedulerTuning {
  maxInFlight: number;
  /** Most calls of one team in flight in one process (default: a quarter of `maxInFlight`). */
  teamMaxInFlight: number;
  /** Most calls to one host:port in flight across all scheduler processes, split between them. */
  destinationMaxInFlight: number;
  /** Consecutive failed calls of a team to an origin that open its circuit (`CIRCUIT_FAILURES`). */
  circuitFailures: number;
  /** How often the backlog (due events left by their slot) is claimed without being poked. */
  backlogEveryMs: number;
  /** How long pokes are gathered into one backlog claim. */
  backlogGatherMs: number;
  claimBatch: number;
  pollMs: number;
  /** How long before their time a slot may claim its events (docs/reference/behaviour.md#claimed-ahead). */
  claimAheadMs: number;
  processEveryMs: number;
  slotConcurrency: number;
  reconcileEveryMs: number;
  /** How often each process looks for dead scheduler processes whose leases it can take back. */
  livenessEveryMs: number;
  cronHorizonMs: number;
  writeBatch: number;
  /**
   * How long a batch's first outcome waits for more to join it (group commit). At 500 deliveries/s,
   * 25 ms instead of batches of 2–3 outcomes every ~5 ms took 60 % off PostgreSQL's CPU per
   * delivery (bench/README.md, bench/steady-rate, 2026-12-01).
   */
  writeDelayMs: number;
  /**
   * The same while places are wanted, which outcomes hold until written: with 25 ms then, a process
   * at its limit spent 5–12 % more CPU per delivery (bench/delivery, 2026-11-30).
   */
  writeWantedDelayMs: number;
}

const DEFAULT_TUNING: Omit<SchedulerTuning, 'teamMaxInFlight'> = {
  maxInFlight: 1000,
  destinationMaxInFlight: 50,
  circuitFailures: 10,
  backlogEveryMs: 1000,
  backlogGatherMs: 5,
  claimBatch: 500,
  pollMs: 25,
  claimAheadMs: 100,
  processEveryMs: 50,
  slotConcurrency: 8,
  reconcileEveryMs: 2000,
  livenessEveryMs: 1000,
  cronHorizonMs: 60_000,
  writeBatch: 500,
  writeDelayMs: 25,
  writeWantedDelayMs: 5,
};

export interface SchedulerOptions {
  /** Pool for Agenda and slot jobs; the same database as the store. */
  pool: Pool;
  store: EventStore;
  /** The timer jobs writers of pending events use too. */
  timers: Timers;
  sender: Sender;
  logger: Logger;
  registry: Registry;
  /** Unique per process. */
  name: string;
  webhookTimeoutMs: number;
  missedToleranceMs: number;
  /** A claim lasts the webhook timeout plus this (default 30 s): long enough to record the outcome. */
  leaseGraceMs?: number;
  /** Spans of the delivery attempts; none when tracing is off. */
  tracing?: AttemptTracing | undefined;
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
  const base = { ...DEFAULT_TUNING, ...options.tuning };
  const tuning: SchedulerTuning = {
    teamMaxInFlight: Math.max(1, Math.floor(base.maxInFlight / 4)),
    ...base,
  };
  const { store, logger, pool } = options;
  const stopping = new AbortController();
  const leaseMs = options.webhookTimeoutMs + (options.leaseGraceMs ?? 30_000);

  const metrics = createDeliveryMetrics(options.registry, () => store.dueBacklog());
  registerNotifyQueueUsage(options.registry, async () => {
    const { rows } = await pool.query<{ usage: number }>('select pg_notification_queue_usage() as usage');
    return rows[0]?.usage ?? 0;
  });
  const owners = new OwnerRegistry(poolConnection(pool), options.name, logger);
  const capacity = new Capacity(tuning.maxInFlight);
  const shares = new Shares(tuning.teamMaxInFlight, tuning.destinationMaxInFlight, tuning.circuitFailures);
  const backlog = new Wakeup(tuning.backlogEveryMs, tuning.backlogGatherMs);
  // A destination whose rate window reopens has waiting events to claim.
  shares.onRoom = () => backlog.poke();
  const writer = new OutcomeWriter(
    store,
    logger,
    {
      maxBatch: tuning.writeBatch,
      maxDelayMs: tuning.writeDelayMs,
      wantedDelayMs: tuning.writeWantedDelayMs,
      placesWanted: () => capacity.wanted,
    },
    metrics,
  );
  capacity.onWant = () => writer.hurry();
  const holdEnds = new HoldEnds({
    store,
    onReleased: () => backlog.poke(),
    onError: (error) => logger.warn({ err: error }, 'could not release the destinations whose hold ended'),
    reconcileEveryMs: tuning.reconcileEveryMs,
  });
  const worker = new DeliveryWorker({
    store,
    sender: options.sender,
    liveness: owners,
    capacity,
    shares,
    backlog,
    holdEnds,
    writer,
    metrics,
    logger,
    tracing: options.tracing,
    options: {
      leaseMs,
      timeoutMs: options.webhookTimeoutMs,
      claimBatch: tuning.claimBatch,
      pollMs: tuning.pollMs,
      claimAheadMs: tuning.claimAheadMs,
      missedToleranceMs: options.missedToleranceMs,
    },
  });

  const reconcile = async (): Promise<void> => {
    await worker.recoverExpiredLeases();
    await holdEnds.release();
    await extendTimerHorizon(pool, store, options.timers);
    await topUpCrons(store, tuning.cronHorizonMs);
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
    onSlot: (slot: SlotJobData) =>
      worker.deliverSlot(slotStart(slot.slot), slotEnd(slot.slot), stopping.signal),
    onReconcile: () =>
      reconcile().catch((error: unknown) => {
        logger.error({ err: error }, 'reconcile failed');
      }),
  });

  // Independent of Agenda: a dead process may hold the reconcile job's lock.
  const watchOwners = async (): Promise<void> => {
    await recoverDeadOwners({
      owners,
      pool,
      logger,
      batch: RECOVERY_BATCH,
      recoverLeases: (dead) => worker.recoverExpiredLeases(dead),
    });
    await owners.refreshPeers();
    shares.splitDestinations(owners.liveProcesses);
    shares.setLimits(await store.destinationLimits(), owners.liveProcesses);
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
  let backlogLoop: Promise<void> = Promise.resolve();
  const dueSoon = new DueSoonListener(poolConnection(pool), logger, (slot) => worker.dueSoon(slot));

  return {
    start: async () => {
      await owners.start();
      await owners.refreshPeers();
      shares.splitDestinations(owners.liveProcesses);
      await store.warmUp().catch((error: unknown) => {
        logger.warn({ err: error }, 'could not ready the database connections for deliveries');
      });
      backlogLoop = worker.runBacklog(stopping.signal);
      await dueSoon.start();
      await timer.start();
      watching = setInterval(watchOnce, tuning.livenessEveryMs);
      watchOnce();
    },
    drain: async (timeoutMs) => {
      stopping.abort();
      clearInterval(watching);
      await dueSoon.stop();
      holdEnds.stop();
      backlog.stop();
      await timer.drain(timeoutMs);
      await backlogLoop;
      await writer.flush();
      await options.sender.close();
      await owners.stop();
    },
  };
}
