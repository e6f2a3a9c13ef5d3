import type { RetryConfig } from '@webhook-scheduler/contract';

/** Delay in ms before retry `retryNumber` (1-based), or null when no such retry is allowed. */
export function nextRetryDelay(config: RetryConfig, retryNumber: number): number | null {
  if (retryNumber < 1 || retryNumber > config.maxRetries) return null;
  return config.backoffType === 'linear'
    ? config.backoffMs * retryNumber
    : config.backoffMs * 2 ** (retryNumber - 1);
}
