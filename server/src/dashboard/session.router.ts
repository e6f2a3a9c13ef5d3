import type { EntityManager } from '@mikro-orm/postgresql';
import { initServer } from '@ts-rest/express';
import { type Session, dashboardContract } from '@webhook-scheduler/contract';
import type { Request } from 'express';
import type { RouteDeps } from '../http/deps.js';
import { clearSessionCookie, sessionOf, setSessionCookie } from '../sessions/session.middleware.js';
import { csrfTokenFor } from '../sessions/session.rules.js';
import { endSession } from '../sessions/sessions.service.js';
import { resetPassword } from '../sessions/password-reset.service.js';
import { signIn, signUp } from '../sessions/sign-in.service.js';
import { userWithTeams } from '../teams/accounts.service.js';
import { throttledAddress } from '../auth/throttle.rules.js';
import { toMyTeamDto, toUserDto } from './dashboard.dto.js';

const s = initServer();

async function view(em: EntityManager, userId: string, csrfToken: string): Promise<Session> {
  const { user, teams } = await userWithTeams(em, userId);
  return { user: toUserDto(user), teams: teams.map(toMyTeamDto), csrf_token: csrfToken };
}

const attemptOf = (req: Request, body: { email: string; password: string }) => ({
  ...body,
  address: throttledAddress(req.ip ?? 'unknown'),
});

export function sessionRouter(deps: RouteDeps) {
  const { orm, now } = deps;
  return s.router(dashboardContract.session, {
    signUp: async ({ body, req, res }) => {
      const session = await signUp(orm.em, attemptOf(req, body), deps, now());
      setSessionCookie(req, res, session);
      return { status: 201, body: { data: await view(orm.em, session.userId, csrfTokenFor(session.token)) } };
    },
    signUpMode: () => Promise.resolve({ status: 200, body: { data: { mode: deps.accounts.signUp } } }),
    resetPassword: async ({ body, req, res }) => {
      const session = await resetPassword(orm.em, body, deps.passwords, now());
      setSessionCookie(req, res, session);
      return { status: 200, body: { data: await view(orm.em, session.userId, csrfTokenFor(session.token)) } };
    },
    signIn: async ({ body, req, res }) => {
      const session = await signIn(orm.em, attemptOf(req, body), deps, now());
      setSessionCookie(req, res, session);
      return { status: 200, body: { data: await view(orm.em, session.userId, csrfTokenFor(session.token)) } };
    },
    signOut: async ({ req, res }) => {
      await endSession(orm.em, sessionOf(req).sessionId);
      clearSessionCookie(req, res);
      return { status: 200, body: { data: { success: true } } };
    },
    get: async ({ req }) => {
      const { userId, csrfToken } = sessionOf(req);
      return { status: 200, body: { data: await view(orm.em, userId, csrfToken) } };
    },
  });
}
