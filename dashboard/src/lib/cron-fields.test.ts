import type { Cron } from '@webhook-scheduler/sdk';
import { describe, expect, it } from 'vitest';
import { cronInputOf } from './cron-fields.js';

describe('cronInputOf', () => {
  it('keeps every field a PUT would otherwise reset to its default', () => {
    const cron: Cron = {
      id: '2f1c9a4e-8a43-4c57-9d5e-3c1b6f0a7d21',
      cron_expression: '0 9 * * MON-FRI',
      timezone: 'Europe/Paris',
      webhook_url: 'https://example.com/hook',
      method: 'PATCH',
      headers: { 'x-a': '1' },
      payload: { a: 1 },
      retry_config: { maxRetries: 2, backoffMs: 300, backoffType: 'linear' },
      timeout_ms: 2000,
      is_active: false,
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
      team_id: '9b0e7c52-61d4-4f0e-8a7b-2d6c4e8f1a30',
      pause_after_failures: 3,
      next_run_at: null,
      last_run_at: '2030-01-01T09:00:00.000Z',
      last_status: 'failed',
      consecutive_failures: 3,
      paused_reason: 'failures',
    };
    const {
      id: _id,
      created_at: _c,
      updated_at: _u,
      team_id: _t,
      next_run_at: _n,
      last_run_at: _l,
      last_status: _s,
      consecutive_failures: _f,
      paused_reason: _p,
      ...input
    } = cron;
    expect(cronInputOf(cron)).toEqual(input);
  });
});
