import type { RetryConfig } from '@webhook-scheduler/contract';

/** The stored retry configuration with its keys in a stable order (jsonb does not keep them). */
export function retryConfigDto(config: RetryConfig | null): RetryConfig | null {
  return (
    config && { maxRetries: config.maxRetries, backoffMs: config.backoffMs, backoffType: config.backoffType }
  );
}
