export type { Cron, CronInput, Event, EventInput, ErrorBody, ErrorCode } from '@webhook-scheduler/contract';
