import type { MikroORM } from '@mikro-orm/postgresql';
import { CSRF_HEADER, TEAM_HEADER, UNAUTHORIZED_MESSAGE, Uuid } from '@webhook-scheduler/contract';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors.js';
import type { ApiCaller } from './deps.js';
import { SESSION_COOKIE, changesState, csrfMatches, readCookie } from '../sessions/session.rules.js';
import { resumeSession } from '../sessions/sessions.service.js';
import { memberRole } from '../teams/member-store.js';
import type { Authenticate } from '../auth/key-authenticator.js';

interface ApiAuthDeps {
  authenticate: Authenticate;
  orm: MikroORM;
  now: () => Date;
}

/**
 * A dashboard session acting for the team in `x-team-id`: only with the session's CSRF token on a
 * state-changing request, and only for a team the user belongs to. Anything less is no caller, so
 * a session gets exactly the 401 a bad key gets.
 */
async function sessionCaller(req: Request, deps: ApiAuthDeps): Promise<ApiCaller | undefined> {
  const token = readCookie(req.get('cookie'), SESSION_COOKIE);
  const teamId = req.get(TEAM_HEADER);
  if (token === undefined || teamId === undefined || !Uuid.safeParse(teamId).success) return undefined;
  const em = deps.orm.em.fork();
  const session = await resumeSession(em, token, deps.now());
  if (!session) return undefined;
  if (changesState(req.method) && !csrfMatches(session.csrfToken, req.get(CSRF_HEADER))) return undefined;
  return (await memberRole(em, session.userId, teamId)) ? { userId: session.userId, teamId } : undefined;
}

/**
 * Authenticates every /api/v1 request before anything reads it: a request with an Authorization
 * header is judged by its key alone; one without may use a dashboard session.
 */
export function apiAuth(deps: ApiAuthDeps): RequestHandler {
  return (req, _res, next) => {
    const authorization = req.get('authorization');
    const caller =
      authorization === undefined ? sessionCaller(req, deps) : deps.authenticate(authorization, deps.now());
    caller.then((auth) => {
      if (!auth) {
        next(new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE));
        return;
      }
      req.auth = auth;
      next();
    }, next);
  };
}
