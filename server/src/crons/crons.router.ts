import { initServer } from '@ts-rest/express';
import { contract } from '@webhook-scheduler/contract';
import { type Implementation, type RouteDeps, teamOf } from '../http/deps.js';
import { answerOnce } from '../idempotency/idempotent-route.js';
import { toCronDto } from './cron.dto.js';
import { toEventDto } from '../events/event.dto.js';
import {
  createCron,
  deleteCron,
  getCron,
  listCrons,
  patchCron,
  replaceCron,
  triggerCron,
} from './crons.service.js';

const s = initServer();

// Annotated: the inferred type of this many routes is too long for the compiler to write out.
export function cronsRouter({
  orm,
  now,
  scheduling,
  teamLimits,
}: RouteDeps): Implementation<typeof contract.crons> {
  const writes = { scheduling, limits: teamLimits };
  return s.router(contract.crons, {
    list: async ({ query, req }) => {
      const { items, total } = await listCrons(orm.em, teamOf(req), query);
      return {
        status: 200,
        body: {
          data: items.map((cron) => toCronDto(cron, now())),
          pagination: { page: query.page, limit: query.limit, total },
        },
      };
    },
    create: async ({ body, headers, req, res }) => {
      const at = now();
      return answerOnce(orm.em, { req, res, key: headers['idempotency-key'], now: at }, async (em) => {
        const cron = await createCron(em, teamOf(req), body, at, writes);
        return { status: 201 as const, body: { data: toCronDto(cron, now()) } };
      });
    },
    get: async ({ params, req }) => {
      const cron = await getCron(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: toCronDto(cron, now()) } };
    },
    update: async ({ params, body, req }) => {
      const cron = await replaceCron(orm.em, teamOf(req), params.id, body, now(), writes);
      return { status: 200, body: { data: toCronDto(cron, now()) } };
    },
    patch: async ({ params, body, req }) => {
      const cron = await patchCron(orm.em, teamOf(req), params.id, body, now(), writes);
      return { status: 200, body: { data: toCronDto(cron, now()) } };
    },
    trigger: async ({ params, req }) => {
      const event = await triggerCron(orm.em, teamOf(req), params.id, now(), writes);
      return { status: 201, body: { data: toEventDto(event) } };
    },
    delete: async ({ params, req }) => {
      await deleteCron(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: { success: true } } };
    },
  });
}
