import type { EntityManager } from '@mikro-orm/postgresql';
import type { SlotPlanner } from '@webhook-scheduler/scheduler';
import { rawQuery } from '../db/raw-query.js';

/** What the API needs to give newly scheduled events their timer jobs. */
export interface Scheduling {
  planner: SlotPlanner;
  cronHorizonMs: number;
}

/**
 * Inserts the slot jobs of `times` in the entity manager's transaction; returns what to call once
 * that transaction has committed.
 */
export async function insertSlotJobs(
  em: EntityManager,
  planner: SlotPlanner,
  times: Date[],
  now: Date,
): Promise<() => void> {
  const plan = planner.plan(times, now);
  if (!plan) return () => {};
  await rawQuery(em, plan.sql, plan.params);
  return plan.committed;
}
