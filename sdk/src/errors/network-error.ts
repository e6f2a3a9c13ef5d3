import { brand, hasBrand } from './brand.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.NetworkError');

/** The request got no response: connection refused, DNS failure, reset… The original error is `cause`. */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
    brand(this, BRAND);
  }
}

/** Whether `value` is the SDK's {@link NetworkError}, from any realm or copy of the SDK. */
export function isNetworkError(value: unknown): value is NetworkError {
  return hasBrand(value, BRAND);
}
