import { initServer } from '@ts-rest/express';
import { contract } from '@webhook-scheduler/contract';
import { type RouteDeps, teamOf } from '../http/deps.js';
import { toEventDto } from './event.dto.js';
import { createEvent, deleteEvent, getEvent, listEvents, replaceEvent } from './events.service.js';

const s = initServer();

export function eventsRouter({ orm, now, scheduling }: RouteDeps) {
  return s.router(contract.events, {
    list: async ({ query, req }) => {
      const { items, total } = await listEvents(orm.em, teamOf(req), query);
      return {
        status: 200,
        body: { data: items.map(toEventDto), pagination: { page: query.page, limit: query.limit, total } },
      };
    },
    create: async ({ body, req }) => {
      const event = await createEvent(orm.em, teamOf(req), body, now(), scheduling);
      return { status: 201, body: { data: toEventDto(event) } };
    },
    get: async ({ params, req }) => {
      const event = await getEvent(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: toEventDto(event) } };
    },
    update: async ({ params, body, req }) => {
      const event = await replaceEvent(orm.em, teamOf(req), params.id, body, now(), scheduling);
      return { status: 200, body: { data: toEventDto(event) } };
    },
    delete: async ({ params, req }) => {
      await deleteEvent(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: { success: true } } };
    },
  });
}
