export { describeCron } from './cron-reading.js';
export { createSender, type SenderOptions } from './delivery/send.js';
export { createDnsResolve, limited, type DnsResolveOptions } from './delivery/dns-resolve.js';
export { allowedHostsProblem } from './delivery/ssrf-guard.js';
export { webhookOrigin } from './delivery/origin.js';
export { newEventId } from './event-id.js';
export { requestOf } from './event-request.js';
export {
  countPerMinute,
  cronProblem,
  minuteOccurrences,
  nextOccurrences,
  occurrencesPerMinute,
  type MinuteOccurrences,
  type OccurrenceBounds,
} from './occurrences.js';
export type {
  AttemptRecord,
  AttemptTracing,
  ClaimOptions,
  ClaimShares,
  ClaimedAttempt,
  DestinationLimit,
  EventRequest,
  EventStore,
  RetryAttempt,
  Sender,
  WebhookOutcome,
  WebhookRequest,
} from './ports.js';
export { createScheduler, type Scheduler, type SchedulerOptions, type SchedulerTuning } from './scheduler.js';
export { schedulerMigrations, type SchedulerMigration } from './schema/migrations.js';
export { extendTimerHorizon } from './timer/horizon.js';
export { Timers, WRITER_HORIZON_MS, type SqlExecutor, type TimersOptions } from './timer/timers.js';
export { answerOf, type CallAnswer } from './worker/untried-origins.js';
