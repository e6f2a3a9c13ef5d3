import { initServer } from '@ts-rest/express';
import { contract } from '@webhook-scheduler/contract';
import { type Implementation, type RouteDeps, teamOf } from '../http/deps.js';
import { toDestinationDto } from './destination.dto.js';
import { getDestination, listTeamDestinations, patchDestination } from './destinations.service.js';

const s = initServer();

export function destinationsRouter({
  orm,
  now,
  destinationMaxInFlight,
}: RouteDeps): Implementation<typeof contract.destinations> {
  return s.router(contract.destinations, {
    list: async ({ query, req }) => {
      const { items, total } = await listTeamDestinations(orm.em, teamOf(req), query);
      return {
        status: 200,
        body: {
          data: items.map(({ row, inFlight }) => toDestinationDto(row, inFlight)),
          pagination: { page: query.page, limit: query.limit, total },
        },
      };
    },
    get: async ({ params, req }) => {
      const { row, inFlight } = await getDestination(orm.em, teamOf(req), params.origin);
      return { status: 200, body: { data: toDestinationDto(row, inFlight) } };
    },
    patch: async ({ params, body, req }) => {
      const at = now();
      const { row, inFlight } = await patchDestination(
        orm.em,
        teamOf(req),
        params.origin,
        body,
        at,
        destinationMaxInFlight,
      );
      return { status: 200, body: { data: toDestinationDto(row, inFlight) } };
    },
  });
}
