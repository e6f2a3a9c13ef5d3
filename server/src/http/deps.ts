import type { MikroORM } from '@mikro-orm/postgresql';
import type { AuthContext } from '../auth/key-authenticator.js';
import type { Scheduling } from '../scheduling/slot-jobs.js';

/** What the route handlers need. */
export interface RouteDeps {
  orm: MikroORM;
  now: () => Date;
  scheduling: Scheduling;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the bearer middleware on every /api/v1 request that reaches a handler. */
    auth?: AuthContext;
  }
}

/** The caller's team; the bearer middleware guarantees it on every /api/v1 route. */
export function teamOf(req: { auth?: AuthContext | undefined }): string {
  if (!req.auth) throw new Error('teamOf() called on a route without authentication');
  return req.auth.teamId;
}
