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

/**
 * Agenda as the timer: one job per occupied slot (inserted idempotently by whoever schedules an
 * event) and a repeating reconcile job. Agenda decides when; our rows and leases decide what is
 * delivered, so a duplicate or late job run cannot duplicate or lose a delivery.
 */
export class AgendaTimer {
  readonly #agenda: Agenda;
  /** The slots this process is delivering. */
  readonly #running = new Map<number, Promise<boolean>>();

  constructor(private readonly options: AgendaTimerOptions) {
    this.#agenda = new Agenda({
      // Schema comes from our migrations; notifications cost three NOTIFYs per job for nothing here.
      backend: new PostgresBackend({
        pool: preparingPool(options.pool),
        ensureSchema: false,
        disableNotifications: true,
      }),
      name: options.name,
      processEvery: options.processEveryMs,
      maxConcurrency: options.slotConcurrency + 1,
      lockLimit: options.slotConcurrency * 2 + 1,
      defaultLockLifetime: options.slotLockLifetimeMs,
      removeOnComplete: true,
    });
    this.#agenda.on('error', (error) => options.logger.error({ err: error }, 'agenda error'));
    this.#agenda.define(SLOT_JOB, (job: Job<SlotJobData>) => this.#runSlot(job), {
      concurrency: options.slotConcurrency,
      lockLimit: options.slotConcurrency * 2,
      lockLifetime: options.slotLockLifetimeMs,
    });
    this.#agenda.define(RECONCILE_JOB, () => options.onReconcile(), { concurrency: 1, lockLimit: 1 });
  }

  async start(): Promise<void> {
    await this.#dropStaleSlots();
    await this.#agenda.start();
    await this.#agenda.every(this.options.reconcileEveryMs, RECONCILE_JOB);
  }

  /** Stops taking jobs and waits (bounded) for running ones; releases jobs locked but not started. */
  async drain(timeoutMs: number): Promise<void> {
    const result = await this.#agenda.drain({ timeout: timeoutMs, closeConnection: false });
    if (result.timedOut) {
      this.options.logger.warn({ running: result.running }, 'jobs still running when the drain timed out');
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
