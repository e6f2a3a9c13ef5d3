import { initServer } from '@ts-rest/express';
import { contract } from '@webhook-scheduler/contract';
import { type Implementation, type RouteDeps, teamOf } from '../http/deps.js';
import { collectedPage, streamedPage } from '../http/streamed-page.js';
import { answerOnce } from '../idempotency/idempotent-route.js';
import { toEventDto } from './event.dto.js';
import {
  createEvent,
  createEvents,
  deleteEvent,
  getEvent,
  listEvents,
  replaceEvent,
} from './events.service.js';
import { replayEvent, replayEvents } from './replays.service.js';

const s = initServer();

// Annotated: the inferred type of this many routes is too long for the compiler to write out.
export function eventsRouter({
  orm,
  now,
  scheduling,
  teamLimits,
}: RouteDeps): Implementation<typeof contract.events> {
  const writes = { scheduling, limits: teamLimits };
  return s.router(contract.events, {
    list: async ({ query, req, res }) => {
      const { chunks, total, oneStatement } = await listEvents(orm.em, teamOf(req), query);
      const pagination = { page: query.page, limit: query.limit, total };
      if (oneStatement) return { status: 200, body: await collectedPage(chunks, toEventDto, pagination) };
      res.type('application/json');
      return { status: 200, body: streamedPage(chunks, toEventDto, pagination, res) };
    },
    create: async ({ body, headers, req, res }) => {
      const at = now();
      return answerOnce(orm.em, { req, res, key: headers['idempotency-key'], now: at }, async (em) => {
        const event = await createEvent(em, teamOf(req), body, at, writes);
        return { status: 201 as const, body: { data: toEventDto(event) } };
      });
    },
    createMany: async ({ body, headers, req, res }) => {
      const at = now();
      return answerOnce(orm.em, { req, res, key: headers['idempotency-key'], now: at }, async (em) => {
        const events = await createEvents(em, teamOf(req), body.events, at, writes);
        return { status: 201 as const, body: { data: events.map(toEventDto) } };
      });
    },
    replayMany: async ({ body, headers, req, res }) => {
      const at = now();
      return answerOnce(orm.em, { req, res, key: headers['idempotency-key'], now: at }, async (em) => {
        const { replayed, first } = await replayEvents(em, teamOf(req), body, at, writes);
        return { status: 201 as const, body: { replayed, data: first.map(toEventDto) } };
      });
    },
    replay: async ({ params, req }) => {
      const event = await replayEvent(orm.em, teamOf(req), params.id, now(), writes);
      return { status: 201, body: { data: toEventDto(event) } };
    },
    get: async ({ params, req }) => {
      const event = await getEvent(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: toEventDto(event) } };
    },
    update: async ({ params, body, req }) => {
      const event = await replaceEvent(orm.em, teamOf(req), params.id, body, now(), writes);
      return { status: 200, body: { data: toEventDto(event) } };
    },
    delete: async ({ params, req }) => {
      await deleteEvent(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: { success: true } } };
    },
  });
}
