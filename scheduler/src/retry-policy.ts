import type { RetryConfig } from '@webhook-scheduler/contract';

/**
 * The delay in milliseconds before retry `retryNumber` (1-based) of a failed delivery, or null
 * when that retry is not allowed (`retryNumber` not an integer in 1..`maxRetries`).
 *
 * docs/reference/behaviour.md#retry-backoff: `linear` waits `backoffMs × n`, `exponential` waits `backoffMs × 2^(n−1)`.
 * An event without a `retry_config` has no policy at all: its caller makes no retries.
 */
export function nextRetryDelay(config: RetryConfig, retryNumber: number): number | null {
  if (!Number.isInteger(retryNumber) || retryNumber < 1 || retryNumber > config.maxRetries) return null;
  switch (config.backoffType) {
    case 'linear':
      return config.backoffMs * retryNumber;
    case 'exponential':
      return config.backoffMs * 2 ** (retryNumber - 1);
  }
}
