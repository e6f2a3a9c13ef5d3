import { SlotMemory, slotJobsInsert } from './slot-jobs.js';

/** A statement giving events their slot jobs; call `committed()` once its transaction committed. */
export interface SlotPlan {
  sql: string;
  params: unknown[];
  committed: () => void;
}

/** Plans the slot-job inserts for newly scheduled events, skipping slots this process already covered. */
export class SlotPlanner {
  readonly #memory: SlotMemory;

  constructor(private readonly options: { leadMs: number; shards: number }) {
    this.#memory = new SlotMemory(options.leadMs);
  }

  plan(times: Date[], now: Date): SlotPlan | null {
    const slots = this.#memory.needed(times, now);
    if (slots.length === 0) return null;
    const { sql, params } = slotJobsInsert(slots, this.options.shards, this.options.leadMs);
    return { sql, params, committed: () => this.#memory.remember(slots, now) };
  }
}
