import { describe, expect, it } from 'vitest';
import { timeoutIssues } from './timeout.rules.js';

describe('timeoutIssues', () => {
  it.each([null, 1000, 30_000])('accepts %s under a maximum of 30000', (timeoutMs) => {
    expect(timeoutIssues(timeoutMs, 30_000)).toEqual([]);
  });

  it('names timeout_ms and the maximum when it is above WEBHOOK_TIMEOUT_MS', () => {
    expect(timeoutIssues(30_001, 30_000)).toEqual([
      {
        path: ['timeout_ms'],
        message: "timeout_ms must be from 1000 to 30000 (the service's WEBHOOK_TIMEOUT_MS)",
      },
    ]);
  });
});
