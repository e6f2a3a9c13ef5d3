import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import type { RouteDeps } from '../http/deps.js';
import { sessionOf } from '../sessions/session.middleware.js';
import { setTeamTracing, showTeamTracing } from '../teams/team-tracing.service.js';

const s = initServer();

export function tracingRouter({ orm, now }: RouteDeps) {
  return s.router(dashboardContract.tracing, {
    get: async ({ params, req }) => {
      const on = await showTeamTracing(orm.em, sessionOf(req).userId, params.teamId);
      return { status: 200, body: { data: { send_traceparent: on } } };
    },
    set: async ({ params, body, req }) => {
      const userId = sessionOf(req).userId;
      const on = await setTeamTracing(orm.em, userId, params.teamId, body.send_traceparent, now());
      return { status: 200, body: { data: { send_traceparent: on } } };
    },
  });
}
