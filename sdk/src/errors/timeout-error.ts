import { brand, hasBrand } from './brand.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.TimeoutError');

/** No response arrived within the client's `timeout` (timeouts are not retried). */
export class TimeoutError extends Error {
  /** The timeout that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number, options?: { cause?: unknown }) {
    super(`The request timed out after ${timeoutMs} ms`, options);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
    brand(this, BRAND);
  }
}

/** Whether `value` is the SDK's {@link TimeoutError}, from any realm or copy of the SDK. */
export function isTimeoutError(value: unknown): value is TimeoutError {
  return hasBrand(value, BRAND);
}
