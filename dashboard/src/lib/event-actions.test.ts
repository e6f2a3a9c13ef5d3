import { describe, expect, it } from 'vitest';
import { canEdit, deleteBlocker, originOf } from './event-actions.js';

const event = (
  overrides: Partial<{
    status: 'pending' | 'processing' | 'success' | 'failed';
    cron_id: string | null;
    retry_of: string | null;
  }> = {},
) => ({
  status: 'pending' as const,
  cron_id: null,
  retry_of: null,
  ...overrides,
});

describe('event actions', () => {
  it.each([
    ['pending', true],
    ['processing', false],
    ['success', false],
    ['failed', false],
  ] as const)('edit a %s event: %s', (status, expected) => {
    expect(canEdit({ status })).toBe(expected);
  });

  it('offer deleting a one-time event unless it is processing', () => {
    expect(deleteBlocker(event())).toBeUndefined();
    expect(deleteBlocker(event({ status: 'failed' }))).toBeUndefined();
    expect(deleteBlocker(event({ status: 'processing' }))).toMatch(/in flight/);
  });

  it('never offer deleting a cron’s event or a retry attempt', () => {
    expect(deleteBlocker(event({ cron_id: 'c' }))).toMatch(/cron/);
    expect(deleteBlocker(event({ retry_of: 'e' }))).toMatch(/Retry/);
  });

  it('tell where an event comes from', () => {
    expect(originOf(event())).toBe('one-time');
    expect(originOf(event({ cron_id: 'c' }))).toBe('cron');
    expect(originOf(event({ cron_id: 'c', retry_of: 'e' }))).toBe('retry');
  });
});
