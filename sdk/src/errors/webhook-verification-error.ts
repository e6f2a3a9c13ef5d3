import { brand, hasBrand } from './brand.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.WebhookVerificationError');

/**
 * Why a webhook was rejected:
 * - `missing_headers`: `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty;
 * - `invalid_timestamp`: `webhook-timestamp` is not whole seconds since the epoch;
 * - `timestamp_too_old` / `timestamp_too_new`: it is further from now than the tolerance (a replay, or a skewed clock);
 * - `invalid_signature`: no `v1` signature matches the secret and the body.
 */
export type WebhookVerificationFailure =
  'missing_headers' | 'invalid_timestamp' | 'timestamp_too_old' | 'timestamp_too_new' | 'invalid_signature';

/** A webhook that must not be trusted: answer it with a 4xx status and do not act on it. */
export class WebhookVerificationError extends Error {
  /** Why verification failed. */
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
    brand(this, BRAND);
  }
}

/** Whether `value` is a {@link WebhookVerificationError}, from any realm or copy of the SDK. */
export function isWebhookVerificationError(value: unknown): value is WebhookVerificationError {
  return hasBrand(value, BRAND);
}
