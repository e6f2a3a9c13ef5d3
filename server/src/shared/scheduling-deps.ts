import type { Timers } from '@webhook-scheduler/scheduler';

/**
 * What the API needs to schedule events: the timers of their seconds, how far ahead crons plan, and
 * the longest deadline of a call (`WEBHOOK_TIMEOUT_MS`), which an event's `timeout_ms` may not pass.
 */
export interface Scheduling {
  timers: Timers;
  cronHorizonMs: number;
  webhookTimeoutMs: number;
}
