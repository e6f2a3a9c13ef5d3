/** The Agenda job that fires for one occupied second. */
export const SLOT_JOB = 'deliver-slot';
/** Length of a slot. */
export const SLOT_MS = 1000;
/** Slot jobs fire this long before their second starts, so they are running when it does. */
export const SLOT_LEAD_MS = 200;
/**
 * A slot job that starts this long after its second ended (the schedulers were down, or stalled)
 * leaves that second's events to the backlog's claims, which serve teams in turn and, within each,
 * what fell due since schedulers served first. Run one by one in Agenda's order, the jobs of every
 * missed second would hold the seconds falling due now behind them (bench/scale `catch-up`:
 * punctual events waited 27 s behind a 10-minute stop's backlog).
 */
export const STALE_SLOT_MS = 10_000;

/** Whether the job of the slot ending at `until` is stale at `now` (see {@link STALE_SLOT_MS}). */
export function isStaleSlot(until: Date, now: number): boolean {
  return now - until.getTime() > STALE_SLOT_MS;
}

/** A slot is the Unix second its events fall in. */
export function slotOf(time: Date): number {
  return Math.floor(time.getTime() / SLOT_MS);
}

/** The distinct slots of `times`. */
export function slotsOf(times: Date[]): number[] {
  return [...new Set(times.map(slotOf))];
}

export function slotStart(slot: number): Date {
  return new Date(slot * SLOT_MS);
}

export function slotEnd(slot: number): Date {
  return new Date((slot + 1) * SLOT_MS);
}

/** The data of a slot job; `key` is unique per (slot, shard). */
export interface SlotJobData {
  key: string;
  slot: number;
  shard: number;
}

/**
 * An idempotent insert of the slot jobs (one per shard) for the given slots, firing `SLOT_LEAD_MS`
 * before each slot starts so the job is running when its first event is due.
 */
export function slotJobsInsert(slots: number[], shards: number): { sql: string; params: unknown[] } {
  const keys: string[] = [];
  const data: string[] = [];
  const runAt: Date[] = [];
  for (const slot of new Set(slots)) {
    for (let shard = 0; shard < shards; shard++) {
      const job: SlotJobData = { key: `${slot}:${shard}`, slot, shard };
      keys.push(job.key);
      data.push(JSON.stringify(job));
      runAt.push(new Date(slot * SLOT_MS - SLOT_LEAD_MS));
    }
  }
  // In one total order: an insert waits for another transaction's uncommitted insert of the same
  // job, so two transactions sharing jobs must take them in the same order or may deadlock.
  return {
    sql: `insert into agenda_jobs (name, next_run_at, type, data, priority, disabled)
          select '${SLOT_JOB}', j.run_at, 'normal', j.data::jsonb, 10, false
          from unnest($1::text[], $2::timestamptz[]) as j(data, run_at)
          order by j.run_at, j.data
          on conflict ((data ->> 'key')) where name = '${SLOT_JOB}' do nothing`,
    params: [data, runAt],
  };
}

/** Scheduler processes listen here for the slots of events written to fall due almost at once. */
export const DUE_SOON_CHANNEL = 'webhook_scheduler_due_soon';

/**
 * {@link slotJobsInsert} that also notifies {@link DUE_SOON_CHANNEL} of each slot of `dueSoon`, in
 * the same statement: the notifications go out when the writer's transaction commits.
 */
export function slotJobsInsertNotifying(
  slots: number[],
  shards: number,
  dueSoon: number[],
): { sql: string; params: unknown[] } {
  const jobs = slotJobsInsert(slots, shards);
  return {
    sql: `with jobs as (${jobs.sql})
          select pg_notify('${DUE_SOON_CHANNEL}', s::text) from unnest($3::bigint[]) as s`,
    params: [...jobs.params, dueSoon],
  };
}

/**
 * Remembers the future slots this process already gave a job, so a burst of events in the same
 * second inserts its job once. Only slots far enough ahead are trusted (their job cannot have run
 * yet); any other slot is always written, the insert being a no-op while its job exists.
 */
export class SlotMemory {
  readonly #known = new Set<number>();

  /** The slots among `slots` that need an insert. */
  needed(slots: number[], now: Date): number[] {
    return slots.filter((slot) => !(this.#known.has(slot) && this.#trusted(slot, now)));
  }

  /** Records slots whose job was inserted. */
  remember(slots: number[], now: Date): void {
    for (const slot of slots) if (this.#trusted(slot, now)) this.#known.add(slot);
    if (this.#known.size > 10_000) {
      for (const slot of this.#known) if (!this.#trusted(slot, now)) this.#known.delete(slot);
    }
  }

  #trusted(slot: number, now: Date): boolean {
    return slot * SLOT_MS - SLOT_LEAD_MS > now.getTime() + SLOT_MS;
  }
}
