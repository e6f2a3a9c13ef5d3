import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelay, retryPolicy, toKyRetry } from './retry-policy.js';

describe('backoffDelay', () => {
  it.each([
    [1, 300],
    [2, 600],
    [3, 1200],
    [6, 9600],
    [7, 10_000],
    [30, 10_000],
  ])('waits %i → %i ms with the default policy', (attempt, delay) => {
    expect(backoffDelay(attempt, DEFAULT_RETRY)).toBe(delay);
  });

  it('doubles from the base delay and stops at the maximum', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy))).toEqual([100, 200, 350, 350]);
  });
});

describe('retryPolicy', () => {
  it('applies the defaults when nothing is given', () => {
    expect(retryPolicy(undefined)).toEqual({
      limit: 2,
      baseDelayMs: 300,
      maxDelayMs: 10_000,
      maxRetryAfterMs: 60_000,
    });
  });

  it('reads a number as the limit', () => {
    expect(retryPolicy(0)).toEqual({ ...DEFAULT_RETRY, limit: 0 });
  });

  it('keeps the defaults of the fields not given', () => {
    expect(retryPolicy({ limit: 5, maxDelayMs: 1000 })).toEqual({
      ...DEFAULT_RETRY,
      limit: 5,
      maxDelayMs: 1000,
    });
  });
});

describe('toKyRetry', () => {
  const retry = toKyRetry(retryPolicy({ limit: 4, baseDelayMs: 50, maxRetryAfterMs: 5000 }));

  it('retries only GET, PUT and DELETE', () => {
    expect(retry.methods).toEqual(['get', 'put', 'delete']);
  });

  it('retries 429 and the transient 5xx statuses, honouring Retry-After on each', () => {
    expect(retry.statusCodes).toEqual([429, 500, 502, 503, 504]);
    expect(retry.afterStatusCodes).toEqual(retry.statusCodes);
    expect(retry.maxRetryAfter).toBe(5000);
  });

  it('does not retry timeouts', () => {
    expect(retry.retryOnTimeout).toBe(false);
  });

  it('uses the exponential backoff of the policy', () => {
    expect([1, 2, 3].map((attempt) => retry.delay?.(attempt))).toEqual([50, 100, 200]);
    expect(retry.limit).toBe(4);
  });
});
