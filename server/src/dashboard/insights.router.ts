import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import { previewCron } from '../crons/crons.service.js';
import { toEventDto } from '../events/event.dto.js';
import { listAttempts } from '../events/events.service.js';
import type { RouteDeps } from '../http/deps.js';
import { sessionOf } from '../sessions/session.middleware.js';
import { roleIn } from '../teams/members.service.js';

const s = initServer();

export function insightsRouter({ orm, now }: RouteDeps) {
  return s.router(dashboardContract.insights, {
    // Pure computation: nothing to await (ts-rest turns a throw into next(error) all the same).
    cronPreview: ({ query }) => {
      const preview = previewCron(query, now());
      const occurrences = preview.occurrences.map((date) => date.toISOString());
      const data = { timezone: preview.timezone, occurrences, description: preview.description };
      return Promise.resolve({ status: 200, body: { data } });
    },
    attempts: async ({ params, req }) => {
      await roleIn(orm.em, sessionOf(req).userId, params.teamId);
      const attempts = await listAttempts(orm.em, params.teamId, params.eventId);
      return { status: 200, body: { data: attempts.map(toEventDto) } };
    },
  });
}
