import { brand, hasBrand } from './brand.js';
import { WebhookSchedulerError, type WebhookSchedulerErrorInit } from './webhook-scheduler-error.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.RateLimitedError');

/**
 * The API answered 429 `RATE_LIMITED`: the API key made more requests than its rate limit allows.
 * The client has already waited and retried idempotent calls (GET, PUT, DELETE) within its retry
 * limit; a create (POST) is never retried and did nothing.
 */
export class RateLimitedError extends WebhookSchedulerError {
  /** How long to wait before the next request, from `Retry-After`; undefined when it was absent. */
  readonly retryAfterMs: number | undefined;

  constructor(init: WebhookSchedulerErrorInit & { retryAfterMs: number | undefined }) {
    super(init);
    this.name = 'RateLimitedError';
    this.retryAfterMs = init.retryAfterMs;
    brand(this, BRAND);
  }
}

/** Whether `value` is a {@link RateLimitedError}, from any realm or copy of the SDK. */
export function isRateLimitedError(value: unknown): value is RateLimitedError {
  return hasBrand(value, BRAND);
}
