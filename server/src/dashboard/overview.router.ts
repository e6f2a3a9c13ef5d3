import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import type { RouteDeps } from '../http/deps.js';
import { deliveriesOverview, upcomingOverview } from '../overview/overview.service.js';
import { sessionOf } from '../sessions/session.middleware.js';
import { roleIn } from '../teams/members.service.js';

const s = initServer();

export function overviewRouter({ orm, now }: RouteDeps) {
  return s.router(dashboardContract.overview, {
    deliveries: async ({ params, query, req }) => {
      await roleIn(orm.em, sessionOf(req).userId, params.teamId);
      const data = await deliveriesOverview(orm.em, params.teamId, query.window, now());
      return { status: 200, body: { data } };
    },
    upcoming: async ({ params, req }) => {
      await roleIn(orm.em, sessionOf(req).userId, params.teamId);
      return { status: 200, body: { data: await upcomingOverview(orm.em, params.teamId, now()) } };
    },
  });
}
