import type { MikroORM } from '@mikro-orm/postgresql';
import { CSRF_HEADER } from '@webhook-scheduler/contract';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors.js';
import { SESSION_COOKIE, SESSION_MAX_MS, changesState, csrfMatches, readCookie } from './session.rules.js';
import { type SessionContext, type StartedSession, resumeSession } from './sessions.service.js';

/** Dashboard routes reachable without a session (relative to /api/dashboard). */
const PUBLIC_ROUTES = new Set([
  'POST /session/sign-up',
  'POST /session/sign-in',
  'GET /session/sign-up-mode',
  'POST /session/reset-password',
  'POST /invites/show',
]);

/** Whether a dashboard request may come without a session (its path relative to /api/dashboard). */
export function isPublicDashboardRoute(req: Request): boolean {
  return PUBLIC_ROUTES.has(`${req.method} ${req.path}`);
}

/**
 * The largest body of a route reachable without a session. Their bodies are an email, a password
 * and a token: 16 KiB is far above any of them, and anyone can send them, so a bigger body is
 * refused from its Content-Length before a byte of it is read (or once 16 KiB have arrived).
 */
export const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024;

const SIGN_IN_FIRST = 'Sign in to continue.';

/** Sets `req.session` when the request carries the cookie of a live session. */
export function loadSession(deps: { orm: MikroORM; now: () => Date }): RequestHandler {
  return (req, _res, next) => {
    const token = readCookie(req.get('cookie'), SESSION_COOKIE);
    if (token === undefined) {
      next();
      return;
    }
    resumeSession(deps.orm.em.fork(), token, deps.now()).then((session) => {
      if (session) req.session = session;
      next();
    }, next);
  };
}

/**
 * Refuses a dashboard request without a session (401) or, when it changes state, without the
 * session's CSRF token in its header (403). The public routes need neither: their JSON body
 * already needs a content type no other site's form can send.
 */
export const requireSession: RequestHandler = (req, _res, next) => {
  if (isPublicDashboardRoute(req)) {
    next();
    return;
  }
  if (!req.session) {
    next(new AppError('UNAUTHORIZED', SIGN_IN_FIRST));
    return;
  }
  if (changesState(req.method) && !csrfMatches(req.session.csrfToken, req.get(CSRF_HEADER))) {
    next(new AppError('FORBIDDEN', 'Missing or invalid CSRF token: reload the page and try again.'));
    return;
  }
  next();
};

/** The request's session; the middleware guarantees one on every non-public dashboard route. */
export function sessionOf(req: Request): SessionContext {
  if (!req.session) throw new AppError('UNAUTHORIZED', SIGN_IN_FIRST);
  return req.session;
}

/** httpOnly so scripts cannot read it, SameSite=Lax, and Secure whenever the request came over HTTPS. */
export function setSessionCookie(req: Request, res: Response, session: StartedSession): void {
  res.cookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    secure: req.secure,
    sameSite: 'lax',
    path: '/',
    maxAge: SESSION_MAX_MS,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: req.secure, sameSite: 'lax', path: '/' });
}
