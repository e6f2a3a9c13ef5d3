import { isHTTPError, isNetworkError as isKyNetworkError, isTimeoutError as isKyTimeoutError } from 'ky';
import type { ErrorCode, ValidationIssue } from '../contract-types.js';
import { NetworkError } from './network-error.js';
import { QuotaExceededError } from './quota-exceeded-error.js';
import { RateLimitedError } from './rate-limited-error.js';
import { TimeoutError } from './timeout-error.js';
import { WebhookSchedulerError, type WebhookSchedulerErrorInit } from './webhook-scheduler-error.js';

// A Record over the union: adding a code to the contract fails to compile until it is listed here.
const ERROR_CODES: Record<ErrorCode, true> = {
  UNAUTHORIZED: true,
  NOT_FOUND: true,
  VALIDATION_ERROR: true,
  BAD_REQUEST: true,
  INTERNAL_SERVER_ERROR: true,
  QUOTA_EXCEEDED: true,
  RATE_LIMITED: true,
  IDEMPOTENCY_KEY_MISMATCH: true,
  IDEMPOTENCY_KEY_IN_USE: true,
};

interface ApiErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    details?: ValidationIssue[] | Record<string, unknown>;
  };
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const { error } = value;
  if (typeof error !== 'object' || error === null) return false;
  return (
    'code' in error && isErrorCode(error.code) && 'message' in error && typeof error.message === 'string'
  );
}

/** The code of an error response whose body is not the API's error shape. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'VALIDATION_ERROR';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return 'INTERNAL_SERVER_ERROR';
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The error class of a code: the typed ones for quotas and rate limits. */
function errorFor(init: WebhookSchedulerErrorInit, response: Response): WebhookSchedulerError {
  if (init.code === 'RATE_LIMITED')
    return new RateLimitedError({ ...init, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
  if (init.code === 'QUOTA_EXCEEDED') return new QuotaExceededError(init);
  return new WebhookSchedulerError(init);
}

/** The SDK error for an error response, from its status, parsed body and headers. */
export function fromErrorResponse(response: Response, body: unknown): WebhookSchedulerError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isApiErrorBody(body)) {
    const { code, message, details } = body.error;
    return errorFor({ status: response.status, code, message, details, requestId }, response);
  }
  const statusText = response.statusText ? ` ${response.statusText}` : '';
  return errorFor(
    {
      status: response.status,
      code: codeForStatus(response.status),
      message: `The API answered HTTP ${response.status}${statusText} without an error body`,
      requestId,
    },
    response,
  );
}

/**
 * Replaces ky's errors with the SDK's. Anything else — an `AbortError` from the caller's signal,
 * a bug — passes through unchanged.
 */
export function toSdkError(error: unknown, timeoutMs: number): unknown {
  if (isHTTPError(error)) return fromErrorResponse(error.response, error.data);
  if (isKyTimeoutError(error)) return new TimeoutError(timeoutMs, { cause: error });
  if (isKyNetworkError(error)) {
    const reason = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new NetworkError(`The request to ${error.request.url} failed${reason}`, { cause: error });
  }
  return error;
}
