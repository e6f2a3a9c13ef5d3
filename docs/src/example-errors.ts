import { UNAUTHORIZED_MESSAGE } from '@webhook-scheduler/contract';

// The error bodies of the OpenAPI document's examples, in the shape every route answers with.

export function error(code: string, message: string, details?: unknown) {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

export function invalid(path: (string | number)[], message: string) {
  const where = path.length > 0 ? `${path.join('.')}: ` : '';
  return error('VALIDATION_ERROR', `Validation failed: ${where}${message}`, [{ path, message }]);
}

export const notUuid = invalid(['id'], 'must be a UUID');

/** The error responses every route shares; a route's own 400 and 404 replace these. */
export function errors(notFound: string, badRequest: unknown, outOfRange?: unknown) {
  return {
    400: badRequest,
    401: error('UNAUTHORIZED', UNAUTHORIZED_MESSAGE),
    404: error('NOT_FOUND', `${notFound} not found`),
    413: invalid([], 'request body is larger than the 1048576 byte limit'),
    429: error('RATE_LIMITED', 'Rate limit exceeded: retry in 1 second'),
    500: outOfRange ?? error('INTERNAL_SERVER_ERROR', 'Internal server error'),
  };
}

export function quotaExceeded(quota: 'active_crons' | 'pending_events', limit: number) {
  const what = quota === 'active_crons' ? 'active crons' : 'pending events created through the API';
  return error('QUOTA_EXCEEDED', `Quota exceeded: the team has ${limit} ${what} and its limit is ${limit}`, {
    quota,
    limit,
    current: limit,
  });
}

/** A request that would take the team's pending bytes (1 GiB by default) past their limit. */
export function pendingBytesExceeded(adding: number) {
  const limit = 1024 ** 3;
  const current = limit - 1000;
  return error(
    'QUOTA_EXCEEDED',
    `Quota exceeded: the team has ${current} bytes of payloads and headers in its pending events, its limit is ${limit}, and this request adds ${adding}`,
    { quota: 'pending_bytes', limit, current },
  );
}

/** The answers of a create's `Idempotency-Key`. */
export const idempotencyErrors = {
  409: error(
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being handled; retry once it has finished',
  ),
  422: error(
    'IDEMPOTENCY_KEY_MISMATCH',
    'This Idempotency-Key was used with a different request body; use a new key for a new request',
  ),
};

/** A list's 500 for a page past the end: `details` tells it from a server failure. */
export const OUT_OF_RANGE = error(
  'INTERNAL_SERVER_ERROR',
  'Page 3 is out of range: there are 250 items, 100 per page',
  { page: 3, limit: 100, total: 250 },
);
