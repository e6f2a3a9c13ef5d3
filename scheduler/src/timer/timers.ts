import { SlotMemory, slotJobsInsert, slotsOf } from './slot-jobs.js';

/** A connection, or a transaction on one, that the scheduler may run its own statements on. */
export interface SqlExecutor {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

export interface TimersOptions {
  /** Slot jobs fire this long before their second starts, so they run when it does. */
  leadMs: number;
  /** Timer jobs per occupied second: how many scheduler processes can share one busy second. */
  shards: number;
}

/**
 * The timer jobs that wake a scheduler for the seconds in which events fall due. Whoever writes
 * pending events gives their times here, in the same transaction, so an event never exists
 * without its timer. Seconds this process already covered are skipped.
 */
export class Timers {
  readonly #memory: SlotMemory;

  constructor(private readonly options: TimersOptions) {
    this.#memory = new SlotMemory(options.leadMs);
  }

  /** The seconds among `times` that may still need a timer job (plain numbers: the slots). */
  uncovered(times: Date[], now: Date): number[] {
    return this.#memory.needed(slotsOf(times), now);
  }

  /**
   * Writes the timer jobs of `slots` through `executor` (idempotently). The slots are remembered once
   * the statement succeeded: should the surrounding transaction then fail to commit, the events it
   * would have added are gone too, and a later event in such a second is still swept up by the
   * reconcile job, only late. Callers make this the last statement of their transaction.
   */
  async cover(executor: SqlExecutor, slots: number[], now: Date): Promise<void> {
    if (slots.length === 0) return;
    const { sql, params } = slotJobsInsert(slots, this.options.shards, this.options.leadMs);
    await executor.query(sql, params);
    this.#memory.remember(slots, now);
  }
}
