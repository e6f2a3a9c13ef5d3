import { initServer } from '@ts-rest/express';
import { contract } from '@webhook-scheduler/contract';
import { type RouteDeps, teamOf } from '../http/deps.js';
import { toCronDto } from './cron.dto.js';
import { createCron, deleteCron, getCron, listCrons, replaceCron } from './crons.service.js';

const s = initServer();

export function cronsRouter({ orm, now, scheduling }: RouteDeps) {
  return s.router(contract.crons, {
    list: async ({ query, req }) => {
      const { items, total } = await listCrons(orm.em, teamOf(req), query);
      return {
        status: 200,
        body: { data: items.map(toCronDto), pagination: { page: query.page, limit: query.limit, total } },
      };
    },
    create: async ({ body, req }) => {
      const cron = await createCron(orm.em, teamOf(req), body, now(), scheduling);
      return { status: 201, body: { data: toCronDto(cron) } };
    },
    get: async ({ params, req }) => {
      const cron = await getCron(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: toCronDto(cron) } };
    },
    update: async ({ params, body, req }) => {
      const cron = await replaceCron(orm.em, teamOf(req), params.id, body, now(), scheduling);
      return { status: 200, body: { data: toCronDto(cron) } };
    },
    delete: async ({ params, req }) => {
      await deleteCron(orm.em, teamOf(req), params.id);
      return { status: 200, body: { data: { success: true } } };
    },
  });
}
