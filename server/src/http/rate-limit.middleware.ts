import { RATE_LIMIT_HEADERS } from '@webhook-scheduler/contract';
import type { NextFunction, RequestHandler, Response } from 'express';
import { throttledAddress } from '../auth/throttle.rules.js';
import { RateLimitedError } from '../errors.js';
import type { ApiCaller } from './deps.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import type { Verdict } from '../limits/rate-limit.rules.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

interface RateLimitDeps {
  limiter: RateLimiter;
  teamLimits: TeamLimitsSource;
  now: () => Date;
}

/** Puts the RateLimit headers on the answer, and refuses the request when the verdict says so. */
function answer(verdict: Verdict, res: Response, next: NextFunction): void {
  res.setHeader(RATE_LIMIT_HEADERS.limit, String(verdict.limit));
  res.setHeader(RATE_LIMIT_HEADERS.remaining, String(verdict.remaining));
  res.setHeader(RATE_LIMIT_HEADERS.reset, String(verdict.resetS));
  next(verdict.allowed ? undefined : new RateLimitedError(verdict.retryAfterS));
}

function callerId(caller: ApiCaller): string {
  return 'keyId' in caller ? `key:${caller.keyId}` : `user:${caller.userId}:${caller.teamId}`;
}

/**
 * The per-key rate limit of /api/v1, after authentication and before the body is read: a refused
 * request does no work. Every answer to an authenticated caller carries the RateLimit headers.
 */
export function rateLimit(deps: RateLimitDeps): RequestHandler {
  return (req, res, next) => {
    const caller = req.auth;
    if (!caller) {
      next();
      return;
    }
    const apply = (rate: number, burst: number) =>
      answer(deps.limiter.take(callerId(caller), rate, burst, deps.now().getTime()), res, next);
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

/**
 * The rate limit of /api/dashboard, at the rate and burst a key has by default (docs/reference/behaviour.md#rate-limits: per
 * key and per dashboard session): per session, and before sign-in per client address (an IPv6
 * client by its /64, as TRUST_PROXY decides the address). Runs before the body is read, in each
 * process at its share like the keys' limit.
 */
export function dashboardRateLimit(deps: RateLimitDeps): RequestHandler {
  return (req, res, next) => {
    const caller = req.session
      ? `session:${req.session.sessionId}`
      : `address:${throttledAddress(req.ip ?? 'unknown')}`;
    const { requests_per_second: rate, request_burst: burst } = deps.teamLimits.defaults;
    answer(deps.limiter.take(caller, rate, burst, deps.now().getTime()), res, next);
  };
}
