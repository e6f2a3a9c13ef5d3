import { type AppRouter, isAppRoute } from '@ts-rest/core';
import { contract } from '@webhook-scheduler/contract';
import type { RequestHandler } from 'express';

/** Response headers a browser page may read: rate limits, when to retry, and the request's id. */
export const CORS_EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
];
/**
 * Request headers a page may send: the key, JSON, an idempotency key, its own request id, and the
 * SDK's User-Agent (no longer a forbidden header in the Fetch standard: Firefox sends it, so its
 * preflight asks for it).
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'User-Agent',
];

/** Every method a route of `router` is called with, once each, in the order the routes come. */
export function routeMethods(router: AppRouter): string[] {
  const methods = Object.values(router).flatMap((value) =>
    isAppRoute(value) ? [value.method] : routeMethods(value),
  );
  return [...new Set(methods)];
}

// Read from the contract, not kept by hand: a hand-kept list left PATCH out, so a browser could not
// patch a cron; a route's method is now allowed as soon as the route exists.
const ALLOWED_METHODS = routeMethods(contract).join(', ');
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for the key-authenticated API, so the SDK works in a page of another origin. Only the
 * configured origins (or any, with `*`) get the headers; credentials are never allowed, since the API
 * takes a bearer key and no cookie. A preflight is answered here, before authentication, which a
 * browser never sends with it.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.get('origin');
    res.vary('Origin');
    const granted = origin !== undefined && (anyOrigin || allowed.has(origin));
    if (granted) {
      res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    }
    const isPreflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    if (!isPreflight) {
      next();
      return;
    }
    if (granted) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
    }
    // Refused origins get the same 204 without the headers: the browser then blocks the call.
    res.status(204).end();
  };
}
