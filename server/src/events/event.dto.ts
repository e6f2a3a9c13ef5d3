import { retryConfigDto } from '../shared/retry-config.dto.js';
import type { Event as EventDto } from '@webhook-scheduler/contract';
import type { Event } from './event.entity.js';

export function toEventDto(event: Event): EventDto {
  return {
    id: event.id,
    cron_id: event.cronId,
    retry_of: event.retryOf,
    scheduled_at: event.scheduledAt.toISOString(),
    executed_at: event.executedAt?.toISOString() ?? null,
    status: event.status,
    webhook_url: event.webhookUrl,
    method: event.method,
    headers: event.headers,
    payload: (event.payload ?? null) as EventDto['payload'],
    retry_config: retryConfigDto(event.retryConfig),
    response_status: event.responseStatus,
    response_headers: event.responseHeaders,
    response_body: event.responseBody,
    response_duration: event.responseDuration,
    response_error: event.responseError,
    created_at: event.createdAt.toISOString(),
    updated_at: event.updatedAt.toISOString(),
    team_id: event.teamId,
  };
}
