import { retryConfigDto } from '../shared/retry-config.dto.js';
import type { Cron as CronDto } from '@webhook-scheduler/contract';
import type { Cron } from './cron-store.js';
import { nextRun } from './cron.rules.js';

/** The cron as the API shows it; `next_run_at` is the schedule's next occurrence after `now`. */
export function toCronDto(cron: Cron, now: Date): CronDto {
  return {
    id: cron.id,
    cron_expression: cron.cronExpression,
    timezone: cron.timezone,
    webhook_url: cron.webhookUrl,
    method: cron.method,
    headers: cron.headers,
    payload: (cron.payload ?? null) as CronDto['payload'],
    retry_config: retryConfigDto(cron.retryConfig),
    timeout_ms: cron.timeoutMs,
    is_active: cron.isActive,
    created_at: cron.createdAt.toISOString(),
    updated_at: cron.updatedAt.toISOString(),
    team_id: cron.teamId,
    pause_after_failures: cron.pauseAfterFailures,
    next_run_at: cron.isActive
      ? (nextRun(cron.cronExpression, cron.timezone, now)?.toISOString() ?? null)
      : null,
    last_run_at: cron.lastRunAt?.toISOString() ?? null,
    last_status: cron.lastStatus,
    consecutive_failures: cron.consecutiveFailures,
    paused_reason: cron.pausedReason,
  };
}
