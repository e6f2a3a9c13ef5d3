import type { Cron, Event } from '../src/index.js';

const NOW = '2030-01-01T00:00:00.000Z';

export function makeCron(overrides: Partial<Cron> = {}): Cron {
  return {
    id: '2f1c9a4e-8a43-4c57-9d5e-3c1b6f0a7d21',
    cron_expression: '0 9 * * MON-FRI',
    timezone: 'Europe/Paris',
    webhook_url: 'https://example.com/hooks/daily',
    method: 'POST',
    headers: null,
    payload: null,
    retry_config: null,
    timeout_ms: null,
    is_active: true,
    created_at: NOW,
    updated_at: NOW,
    team_id: '9b0e7c52-61d4-4f0e-8a7b-2d6c4e8f1a30',
    pause_after_failures: null,
    next_run_at: '2030-01-01T08:00:00.000Z',
    last_run_at: null,
    last_status: null,
    consecutive_failures: 0,
    paused_reason: null,
    ...overrides,
  };
}

export function makeEvent(overrides: Partial<Event> = {}): Event {
  return {
    id: '6d7a1f3b-2c4e-4b8a-9f01-5e6d7c8b9a02',
    cron_id: null,
    retry_of: null,
    replay_of: null,
    scheduled_at: '2030-01-01T09:00:00.000Z',
    executed_at: null,
    status: 'pending',
    webhook_url: 'https://example.com/hooks/reminder',
    method: 'POST',
    headers: null,
    payload: { user: 42 },
    retry_config: null,
    timeout_ms: null,
    response_status: null,
    response_headers: null,
    response_body: null,
    response_duration: null,
    response_error: null,
    created_at: NOW,
    updated_at: NOW,
    team_id: '9b0e7c52-61d4-4f0e-8a7b-2d6c4e8f1a30',
    ...overrides,
  };
}

/** `count` events with distinct ids. */
export function makeEvents(count: number, offset = 0): Event[] {
  return Array.from({ length: count }, (_, index) =>
    makeEvent({ id: `00000000-0000-4000-8000-${String(offset + index).padStart(12, '0')}` }),
  );
}
