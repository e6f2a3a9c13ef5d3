import { retryConfigDto } from '../shared/retry-config.dto.js';
import type { Cron as CronDto } from '@webhook-scheduler/contract';
import type { Cron } from './cron.entity.js';

export function toCronDto(cron: Cron): CronDto {
  return {
    id: cron.id,
    cron_expression: cron.cronExpression,
    timezone: cron.timezone,
    webhook_url: cron.webhookUrl,
    method: cron.method,
    headers: cron.headers,
    payload: (cron.payload ?? null) as CronDto['payload'],
    retry_config: retryConfigDto(cron.retryConfig),
    is_active: cron.isActive,
    created_at: cron.createdAt.toISOString(),
    updated_at: cron.updatedAt.toISOString(),
    team_id: cron.teamId,
  };
}
