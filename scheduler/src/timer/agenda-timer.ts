import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type Job } from 'agenda';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { preparingPool } from './preparing-pool.js';
import { SLOT_JOB, SLOT_LEAD_MS, SLOT_MS, STALE_SLOT_MS, type SlotJobData } from './slot-jobs.js';

const RECONCILE_JOB = 'reconcile';

export interface AgendaTimerOptions {
  pool: Pool;
  /** Unique per process: Agenda records it on the jobs this process locks. */
  name: string;
  logger: Logger;
  processEveryMs: number;
  slotConcurrency: number;
  /** Longest a slot job may run before another process may take it over. */
  slotLockLifetimeMs: number;
  reconcileEveryMs: number;
  /** Runs one slot; returns false when it stopped early and its job should run again elsewhere. */
  onSlot: (slot: SlotJobData) => Promise<boolean>;
  onReconcile: () => Promise<void>;
}

/** An Agenda over our pool and schema, polling for its jobs every `processEvery` ms. */
function agendaOn(
  options: AgendaTimerOptions,
  processEvery: number,
  limits: { maxConcurrency: number; lockLimit: number },
): Agenda {
  const agenda = new Agenda({
    // Schema comes from our migrations; notifications cost three NOTIFYs per job for nothing here.
    backend: new PostgresBackend({
      pool: preparingPool(options.pool),
      ensureSchema: false,
      disableNotifications: true,
    }),
    name: options.name,
    processEvery,
    ...limits,
    defaultLockLifetime: options.slotLockLifetimeMs,
    removeOnComplete: true,
  });
  agenda.on('error', (error) => options.logger.error({ err: error }, 'agenda error'));
  return agenda;
}

/**
 * Agenda as the timer: one job per occupied slot (inserted idempotently by whoever schedules an
 * event) and a repeating reconcile job. Agenda decides when; our rows and leases decide what is
 * delivered, so a duplicate or late job run cannot duplicate or lose a delivery.
 *
 * The reconcile job has an Agenda of its own, polling at half its interval: an Agenda polls for each
 * job name it knows at every tick, so in the slots' Agenda it doubled the statements of a timer with
 * nothing to do (40 a second). Agenda locks a job due within its next poll and starts it on time.
 */
export class AgendaTimer {
  readonly #slots: Agenda;
  readonly #reconciler: Agenda;
  /** The slots this process is delivering. */
  readonly #running = new Map<number, Promise<boolean>>();

  constructor(private readonly options: AgendaTimerOptions) {
    const lockLimit = options.slotConcurrency * 2;
    this.#slots = agendaOn(options, options.processEveryMs, {
      maxConcurrency: options.slotConcurrency,
      lockLimit,
    });
    this.#slots.define(SLOT_JOB, (job: Job<SlotJobData>) => this.#runSlot(job), {
      concurrency: options.slotConcurrency,
      lockLimit,
      lockLifetime: options.slotLockLifetimeMs,
    });
    this.#reconciler = agendaOn(options, options.reconcileEveryMs / 2, { maxConcurrency: 1, lockLimit: 1 });
    this.#reconciler.define(RECONCILE_JOB, () => options.onReconcile(), { concurrency: 1, lockLimit: 1 });
  }

  async start(): Promise<void> {
    await this.#dropStaleSlots();
    await this.#slots.start();
    // Before it starts, so that its first poll finds the job due.
    await this.#reconciler.every(this.options.reconcileEveryMs, RECONCILE_JOB);
    await this.#reconciler.start();
  }

  /** Stops taking jobs and waits (bounded) for running ones; releases jobs locked but not started. */
  async drain(timeoutMs: number): Promise<void> {
    const results = await Promise.all(
      [this.#slots, this.#reconciler].map((agenda) =>
        agenda.drain({ timeout: timeoutMs, closeConnection: false }),
      ),
    );
    if (results.some((result) => result.timedOut)) {
      const running = results.reduce((sum, result) => sum + result.running, 0);
      this.options.logger.warn({ running }, 'jobs still running when the drain timed out');
      return;
    }
    await this.options.pool.query(
      'update agenda_jobs set locked_at = null where locked_at is not null and last_modified_by = $1',
      [this.options.name],
    );
  }

  /**
   * Drops the slot jobs of seconds long past that no process holds: after a downtime their events
   * are the backlog's, and Agenda would run every one before the jobs of the seconds due now.
   */
  async #dropStaleSlots(): Promise<void> {
    const cutOff = new Date(Date.now() - STALE_SLOT_MS - SLOT_MS - SLOT_LEAD_MS);
    await this.options.pool.query(
      'delete from agenda_jobs where name = $1 and next_run_at < $2 and locked_at is null',
      [SLOT_JOB, cutOff],
    );
  }

  async #runSlot(job: Job<SlotJobData>): Promise<void> {
    const { slot } = job.attrs.data;
    // Shards let processes share a busy second. Two shards' jobs in one process share its one run:
    // each its own only doubled the second's claims (bench/README.md, 2026-11-28 afternoon).
    let running = this.#running.get(slot);
    if (!running) {
      running = this.options.onSlot(job.attrs.data).finally(() => this.#running.delete(slot));
      this.#running.set(slot, running);
    }
    const finished = await running;
    // Stopped early (shutdown): run the job again at once, in whichever process takes it.
    if (!finished) job.attrs.nextRunAt = new Date();
  }
}
