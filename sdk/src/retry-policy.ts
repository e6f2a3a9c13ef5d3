import { type RetryOptions as KyRetryOptions, isHTTPError } from 'ky';
import { fromErrorResponse } from './errors/to-sdk-error.js';
import { isPastTheEnd } from './paginate.js';

/** How the client retries idempotent requests. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retries off. Default 2. */
  limit?: number;
  /** Delay before the first retry, doubled for each further one. Default 300 ms. */
  baseDelayMs?: number;
  /** Longest delay between two attempts. Default 10 000 ms. */
  maxDelayMs?: number;
  /** Longest `Retry-After` the client honours; a longer one is cut to this. Default 60 000 ms. */
  maxRetryAfterMs?: number;
}

/** The retry settings with their defaults applied. */
export type RetryPolicy = Required<RetryOptions>;

/** Defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: RetryPolicy = {
  limit: 2,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

// A POST without an Idempotency-Key: repeating it after a lost response could schedule the same
// webhook twice. Creates carry a key (see transport.ts) and are retried with it.
export const RETRY_METHODS = ['get', 'put', 'delete'] as const;

/** Statuses worth another attempt: rate limiting and server or gateway failures. */
export const RETRY_STATUSES = [429, 500, 502, 503, 504] as const;

/**
 * A keyed create is also retried on 409 (IDEMPOTENCY_KEY_IN_USE: an earlier attempt whose answer
 * was lost is still being handled); the retry then gets that attempt's answer.
 */
export const KEYED_RETRY_STATUSES = [...RETRY_STATUSES, 409] as const;

/** Applies defaults; a number is the retry limit. */
export function retryPolicy(options: RetryOptions | number | undefined): RetryPolicy {
  if (typeof options === 'number') return { ...DEFAULT_RETRY, limit: options };
  return { ...DEFAULT_RETRY, ...options };
}

/** Delay before retry `attempt` (1-based) without `Retry-After`: exponential, capped. */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

/** Whether ky's error is an answer that would come again: the 500 of a page past the end. */
function wouldComeAgain(error: Error): boolean {
  return isHTTPError(error) && isPastTheEnd(fromErrorResponse(error.response, error.data));
}

/**
 * The policy as ky's retry options. ky applies `Retry-After` (seconds or an HTTP date) on the
 * listed statuses in place of the backoff, capped at `maxRetryAfter`; network errors are retried,
 * timeouts are not, nor is the 500 of a page past the end (asked again, it answers the same).
 */
export function toKyRetry(policy: RetryPolicy, { keyed = false }: { keyed?: boolean } = {}): KyRetryOptions {
  return {
    limit: policy.limit,
    methods: keyed ? [...RETRY_METHODS, 'post'] : [...RETRY_METHODS],
    statusCodes: keyed ? [...KEYED_RETRY_STATUSES] : [...RETRY_STATUSES],
    afterStatusCodes: [...RETRY_STATUSES],
    maxRetryAfter: policy.maxRetryAfterMs,
    backoffLimit: policy.maxDelayMs,
    delay: (attempt) => backoffDelay(attempt, policy),
    retryOnTimeout: false,
    // false refuses the retry; undefined leaves the decision to the options above.
    shouldRetry: ({ error }) => (wouldComeAgain(error) ? false : undefined),
  };
}
