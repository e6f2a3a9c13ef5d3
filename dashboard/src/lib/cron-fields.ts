import type { Cron, CronInput } from '@webhook-scheduler/sdk';

/** The input that replaces a cron with itself: PUT is a full replacement, so every field is sent. */
export function cronInputOf(cron: Cron): CronInput {
  return {
    webhook_url: cron.webhook_url,
    cron_expression: cron.cron_expression,
    method: cron.method,
    timezone: cron.timezone,
    headers: cron.headers,
    payload: cron.payload,
    retry_config: cron.retry_config,
    timeout_ms: cron.timeout_ms,
    is_active: cron.is_active,
    pause_after_failures: cron.pause_after_failures,
  };
}

/** Schedules to start from, in the grammar the scheduler understands. */
export const SCHEDULE_EXAMPLES: [string, string][] = [
  ['*/5 * * * *', 'every 5 minutes'],
  ['0 * * * *', 'every hour'],
  ['0 9 * * MON-FRI', 'weekdays at 09:00'],
  ['@midnight', 'every midnight'],
  ['0 18 LW * *', 'last weekday of the month, 18:00'],
];
