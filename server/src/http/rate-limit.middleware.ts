import { RATE_LIMIT_HEADERS } from '@webhook-scheduler/contract';
import type { RequestHandler } from 'express';
import { RateLimitedError } from '../errors.js';
import type { ApiCaller } from './deps.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

function callerId(caller: ApiCaller): string {
  return 'keyId' in caller ? `key:${caller.keyId}` : `user:${caller.userId}:${caller.teamId}`;
}

/**
 * The per-key rate limit of /api/v1, after authentication and before the body is read: a refused
 * request does no work. Every answer to an authenticated caller carries the RateLimit headers.
 */
export function rateLimit(deps: {
  limiter: RateLimiter;
  teamLimits: TeamLimitsSource;
  now: () => Date;
}): RequestHandler {
  return (req, res, next) => {
    const caller = req.auth;
    if (!caller) {
      next();
      return;
    }
    const apply = (rate: number, burst: number) => {
      const verdict = deps.limiter.take(callerId(caller), rate, burst, deps.now().getTime());
      res.setHeader(RATE_LIMIT_HEADERS.limit, String(verdict.limit));
      res.setHeader(RATE_LIMIT_HEADERS.remaining, String(verdict.remaining));
      res.setHeader(RATE_LIMIT_HEADERS.reset, String(verdict.resetS));
      next(verdict.allowed ? undefined : new RateLimitedError(verdict.retryAfterS));
    };
    const cached = deps.teamLimits.cached(caller.teamId);
    if (cached) {
      apply(cached.requests_per_second, cached.request_burst);
      return;
    }
    deps.teamLimits
      .forTeam(caller.teamId)
      .then((limits) => apply(limits.requests_per_second, limits.request_burst), next);
  };
}
