import { SLOT_MS, SlotMemory, slotJobsInsert, slotJobsInsertNotifying, slotsOf } from './slot-jobs.js';

/** A connection, or a transaction on one, that the scheduler may run its own statements on. */
export interface SqlExecutor {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

export interface TimersOptions {
  /** Timer jobs per occupied second: how many scheduler processes can share one busy second. */
  shards: number;
}

/**
 * How far ahead a writer gives its events their timer jobs. Later seconds get theirs from the
 * horizon job (`TimerHorizon`) as they come within `HORIZON_MS`, so the timer jobs waiting at any
 * time cover a few minutes, however many events wait for the next month.
 */
export const WRITER_HORIZON_MS = 5 * 60_000;
/**
 * How far ahead the horizon job covers. It stays a minute short of the writers' horizon: an event
 * the horizon job reaches was written at least a minute before, so its transaction has committed
 * and the job's scan sees it (one left by a longer transaction is claimed by the backlog sweep).
 */
export const HORIZON_MS = WRITER_HORIZON_MS - 60_000;

/**
 * An event written to fall due within this wakes the schedulers at once (`DUE_SOON_CHANNEL`): a
 * running slot looks for events added to it only at its next poll, and a new second's timer job is
 * found at Agenda's next poll, so such an event started up to a poll late (bench/add-to-start). One
 * written earlier is claimed ahead of its time by those polls.
 */
export const WAKE_WITHIN_MS = 100;

/**
 * The timer jobs that wake a scheduler for the seconds in which events fall due. Whoever makes
 * events pending, by an insert or by a new time, calls {@link Timers.schedule} with their times in
 * the same transaction, so an event due within the writers' horizon never exists without its timer;
 * seconds this process already covered are skipped.
 */
export class Timers {
  readonly #memory = new SlotMemory();

  constructor(private readonly options: TimersOptions) {}

  /**
   * The one call for writers: gives the seconds of `times` within the writers' horizon their timer
   * jobs through `executor`, as the last statement of the writer's transaction (see {@link cover}),
   * and wakes the schedulers at its commit for those due within {@link WAKE_WITHIN_MS}. Writes
   * nothing when this process covered them all already.
   */
  async schedule(executor: SqlExecutor, times: Date[], now: Date): Promise<void> {
    const dueSoon = slotsOf(times.filter((time) => time.getTime() - now.getTime() < WAKE_WITHIN_MS));
    await this.#write(executor, this.#uncovered(times, now), dueSoon, now);
  }

  /**
   * Whether {@link schedule} would write nothing for `times` now: a writer whose events need no
   * timer job may then skip the transaction around its insert.
   */
  covers(times: Date[], now: Date): boolean {
    return this.#uncovered(times, now).length === 0;
  }

  /** The seconds among `times` that may still need a timer job now (plain numbers: the slots). */
  #uncovered(times: Date[], now: Date): number[] {
    const horizon = now.getTime() + WRITER_HORIZON_MS;
    return this.#memory.needed(
      slotsOf(times).filter((slot) => slot * SLOT_MS < horizon),
      now,
    );
  }

  /**
   * Writes the timer jobs of `slots` through `executor` (idempotently). The slots are remembered once
   * the statement succeeded: should the surrounding transaction then fail to commit, the events it
   * would have added are gone too, and a later event in such a second is still swept up by the
   * backlog, only late. Callers make this the last statement of their transaction.
   */
  async cover(executor: SqlExecutor, slots: number[], now: Date): Promise<void> {
    await this.#write(executor, slots, [], now);
  }

  /**
   * Writes the timer jobs of `slots` and notifies those of `dueSoon`. A slot due that soon is never
   * remembered (SlotMemory trusts none), so it is always among `slots` as well.
   */
  async #write(executor: SqlExecutor, slots: number[], dueSoon: number[], now: Date): Promise<void> {
    if (slots.length === 0) return;
    const { shards } = this.options;
    const { sql, params } =
      dueSoon.length === 0 ? slotJobsInsert(slots, shards) : slotJobsInsertNotifying(slots, shards, dueSoon);
    await executor.query(sql, params);
    this.#memory.remember(slots, now);
  }
}
