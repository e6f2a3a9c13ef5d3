import type { ValidationIssue } from '@webhook-scheduler/contract';

/**
 * An event's or cron's `timeout_ms` may not exceed the service's `WEBHOOK_TIMEOUT_MS` (the contract
 * checks the minimum; only the server knows the maximum). null takes the service's.
 */
export function timeoutIssues(timeoutMs: number | null, serviceMax: number): ValidationIssue[] {
  if (timeoutMs === null || timeoutMs <= serviceMax) return [];
  return [
    {
      path: ['timeout_ms'],
      message: `timeout_ms must be from 1000 to ${serviceMax} (the service's WEBHOOK_TIMEOUT_MS)`,
    },
  ];
}
