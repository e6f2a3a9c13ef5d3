import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppRouter } from '@ts-rest/core';
import type { createExpressEndpoints } from '@ts-rest/express';
import type { AuthContext } from '../auth/key-authenticator.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import type { Scheduling } from '../shared/scheduling-deps.js';
import type { SessionContext } from '../sessions/sessions.service.js';
import type { SignInDeps } from '../sessions/sign-in.service.js';

/** What the route handlers need. */
export interface RouteDeps extends SignInDeps {
  orm: MikroORM;
  now: () => Date;
  scheduling: Scheduling;
  /** Each team's limits and quotas (the configured defaults under its own overrides). */
  teamLimits: TeamLimitsSource;
  /** Most calls to one origin at once, across the scheduler processes (a team's own limit is at most this). */
  destinationMaxInFlight: number;
  /** Stops keys revoked by this process from authenticating here at once (by their hashes). */
  forgetKeys: (keyHashes: readonly string[]) => void;
}

/** Who calls an /api/v1 route: an API key, or a dashboard user acting for one of their teams. */
export type ApiCaller = AuthContext | { userId: string; teamId: string };

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the API auth middleware on every /api/v1 request that reaches a handler. */
    auth?: ApiCaller;
    /** Set on dashboard requests that carry a live session cookie. */
    session?: SessionContext;
  }
}

/** The caller's team; the bearer middleware guarantees it on every /api/v1 route. */
export function teamOf(req: { auth?: ApiCaller | undefined }): string {
  if (!req.auth) throw new Error('teamOf() called on a route without authentication');
  return req.auth.teamId;
}

/** The handlers of a contract router, as `createExpressEndpoints` takes them. */
export type Implementation<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];
