export { createSender, type SenderOptions } from './delivery/send.js';
export { allowedHostsProblem } from './delivery/ssrf-guard.js';
export { cronProblem, nextOccurrences, type OccurrenceBounds } from './occurrences.js';
export type {
  AttemptRecord,
  ClaimedAttempt,
  EventStore,
  Sender,
  WebhookOutcome,
  WebhookRequest,
} from './ports.js';
export { createScheduler, type Scheduler, type SchedulerOptions, type SchedulerTuning } from './scheduler.js';
export { SlotPlanner, type SlotPlan } from './timer/slot-planner.js';
