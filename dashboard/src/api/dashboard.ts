import { initClient } from '@ts-rest/core';
import { CSRF_HEADER, dashboardContract } from '@webhook-scheduler/contract';
import { ApiError, fromErrorResponse, toApiError } from './errors.js';

let csrfToken = '';

/** Remembers the session's CSRF token: every state-changing call sends it. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The CSRF token of the current session. */
export function currentCsrfToken(): string {
  return csrfToken;
}

/** The typed client of the dashboard's own routes, generated from the contract. */
export const dashboardApi = initClient(dashboardContract, {
  baseUrl: '',
  baseHeaders: { [CSRF_HEADER]: () => csrfToken },
  validateResponse: false,
});

/**
 * The `data` of a response with the `expected` status; anything else throws an ApiError. A failed
 * fetch throws one too.
 */
export async function unwrap<R extends { status: number; body: unknown }, S extends R['status']>(
  call: Promise<R>,
  expected: S,
): Promise<Extract<R, { status: S }>['body'] extends { data: infer D } ? D : never> {
  let response: R;
  try {
    response = await call;
  } catch (error) {
    throw toApiError(error);
  }
  if (response.status !== expected) throw toApiError(fromErrorResponse(response.status, response.body));
  return (response.body as { data: never }).data;
}

export { ApiError };
