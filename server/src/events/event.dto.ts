import type { Event as EventDto } from '@webhook-scheduler/contract';
import { retryConfigDto } from '../shared/retry-config.dto.js';
import type { EventRow } from './store/event-row.js';

const iso = (timestamp: string) => new Date(timestamp).toISOString();

export function toEventDto(row: EventRow): EventDto {
  return {
    id: row.id,
    cron_id: row.cron_id,
    retry_of: row.retry_of,
    replay_of: row.replay_of,
    scheduled_at: iso(row.scheduled_at),
    executed_at: row.executed_at === null ? null : iso(row.executed_at),
    status: row.status,
    webhook_url: row.webhook_url,
    method: row.method,
    headers: row.headers,
    payload: (row.payload ?? null) as EventDto['payload'],
    retry_config: retryConfigDto(row.retry_config),
    timeout_ms: row.timeout_ms,
    response_status: row.response_status,
    response_headers: row.response_headers,
    response_body: row.response_body,
    response_duration: row.response_duration,
    response_error: row.response_error,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    team_id: row.team_id,
  };
}
