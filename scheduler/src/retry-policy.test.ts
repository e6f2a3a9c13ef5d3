import type { RetryConfig } from '@webhook-scheduler/contract';
import { describe, expect, test } from 'vitest';
import { nextRetryDelay } from './retry-policy.js';

const linear: RetryConfig = { maxRetries: 3, backoffMs: 1000, backoffType: 'linear' };
const exponential: RetryConfig = { maxRetries: 10, backoffMs: 5000, backoffType: 'exponential' };

describe('nextRetryDelay', () => {
  test.each([
    { config: linear, retry: 1, delay: 1000 },
    { config: linear, retry: 2, delay: 2000 },
    { config: linear, retry: 3, delay: 3000 },
    { config: exponential, retry: 1, delay: 5000 },
    { config: exponential, retry: 2, delay: 10_000 },
    { config: exponential, retry: 3, delay: 20_000 },
    { config: exponential, retry: 10, delay: 2_560_000 },
    { config: { maxRetries: 1, backoffMs: 100, backoffType: 'exponential' } as const, retry: 1, delay: 100 },
  ])('waits $delay ms before $config.backoffType retry $retry', ({ config, retry, delay }) => {
    expect(nextRetryDelay(config, retry)).toBe(delay);
  });

  test.each([
    { config: linear, retry: 4, why: 'is past maxRetries' },
    { config: exponential, retry: 11, why: 'is past maxRetries' },
    { config: linear, retry: 0, why: 'is below 1' },
    { config: exponential, retry: -1, why: 'is below 1' },
    { config: linear, retry: 1.5, why: 'is not an integer' },
    { config: exponential, retry: Number.NaN, why: 'is not a number' },
  ])('returns null when the retry number $retry $why', ({ config, retry }) => {
    expect(nextRetryDelay(config, retry)).toBeNull();
  });
});
