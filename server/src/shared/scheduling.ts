import type { Timers } from '@webhook-scheduler/scheduler';

/** What the API needs to schedule events: the timers of their seconds, and how far ahead crons plan. */
export interface Scheduling {
  timers: Timers;
  cronHorizonMs: number;
}
