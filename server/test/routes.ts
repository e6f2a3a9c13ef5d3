import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AppRoute, type AppRouter, ContractNoBody, isAppRoute } from '@ts-rest/core';
import {
  CronInput,
  CronPatch,
  DestinationPatch,
  EventBatchInput,
  EventInput,
  EventReplayFilter,
  contract,
} from '@webhook-scheduler/contract';
import { saveDestinationSettings } from '../src/destinations/store/destination-settings.js';
import { cronBody, eventBody, makeCron, makeEvent } from './factories.js';

/** One route of the contract, with what a test needs to call it. */
export interface RouteCase {
  /** e.g. `crons.update`. */
  name: string;
  route: AppRoute;
  /**
   * Whether the path addresses one resource through a UUID `:id`. A destination's `:origin` is not
   * one: any origin may be given settings (its own isolation tests are in src/destinations).
   */
  hasId: boolean;
  /** Whether the route takes a JSON body. */
  hasBody: boolean;
  /** The route's path with `:id` replaced. */
  path(id?: string): string;
  /** The path of the resource the route addresses (its GET), with `:id` replaced. */
  resourcePath(id: string): string;
  /** The status of the route's success. */
  successStatus: number;
  /** The path a body without the required fields is refused at; null when no field is required. */
  requiredPath: (string | number)[] | null;
  /** A body the route accepts (undefined for routes without one). */
  validBody(): unknown;
  /** Inserts a resource of the kind the route addresses, owned by `teamId`; returns its id. */
  makeResource(em: EntityManager, teamId: string): Promise<string>;
}

function collect(router: AppRouter, prefix: string): [string, AppRoute][] {
  return Object.entries(router).flatMap(([key, value]): [string, AppRoute][] =>
    isAppRoute(value) ? [[`${prefix}${key}`, value]] : collect(value, `${prefix}${key}.`),
  );
}

/** Whether the route takes a JSON body (`POST /…/replay` and `/…/trigger` take none). */
function takesBody(route: AppRoute): boolean {
  if (route.method === 'GET' || route.method === 'DELETE') return false;
  return route.body !== ContractNoBody;
}

function validBodyFor(name: string, route: AppRoute): () => unknown {
  if (route.method === 'GET' || route.method === 'DELETE' || !takesBody(route)) return () => undefined;
  if (route.body === CronInput) return () => cronBody();
  if (route.body === CronPatch) return () => ({ is_active: false });
  if (route.body === EventInput) return () => eventBody();
  if (route.body === EventBatchInput) return () => ({ events: [eventBody(), eventBody()] });
  if (route.body === DestinationPatch) return () => ({ paused: false });
  if (route.body === EventReplayFilter) return () => ({ status: 'failed' });
  throw new Error(`test/routes.ts has no sample body for ${name}: add one`);
}

function factoryFor(name: string, route: AppRoute): RouteCase['makeResource'] {
  if (route.path.startsWith('/api/v1/crons')) return async (em, teamId) => (await makeCron(em, teamId)).id;
  // A replay needs a finished event; every other verb may act on a manual pending one, so only
  // team scoping can refuse it.
  if (name === 'events.replay') {
    return async (em, teamId) => (await makeEvent(em, teamId, { status: 'success' })).id;
  }
  if (route.path.startsWith('/api/v1/events')) return async (em, teamId) => (await makeEvent(em, teamId)).id;
  if (route.path.startsWith('/api/v1/destinations')) {
    return async (em, teamId) => {
      const origin = `https://d${randomUUID().slice(0, 8)}.example`;
      await em.transactional((tx) =>
        saveDestinationSettings(tx, teamId, origin, { paused: false }, new Date()),
      );
      return origin;
    };
  }
  throw new Error(`test/routes.ts has no factory for the resource of ${name}: add one`);
}

function requiredPathOf(route: AppRoute): (string | number)[] | null {
  const body = 'body' in route ? route.body : undefined;
  if (!takesBody(route) || body === CronPatch || body === DestinationPatch) return null;
  if (body === EventBatchInput) return ['events'];
  return body === EventReplayFilter ? ['status'] : ['webhook_url'];
}

/** The path parameter of a route, and a value of it that names nothing. */
const PARAM = /:(id|origin)\b/;
const unknownValue = (route: AppRoute) =>
  route.path.includes(':origin') ? `https://u${randomUUID().slice(0, 8)}.example` : randomUUID();

/** Every route of the contract, found by walking it, so a new route is covered without editing tests. */
export const routes: RouteCase[] = collect(contract, '').map(([name, route]) => ({
  name,
  route,
  hasId: route.path.includes(':id'),
  hasBody: takesBody(route),
  path: (id = unknownValue(route)) => route.path.replace(PARAM, encodeURIComponent(id)),
  resourcePath: (id) => `${route.path.split(PARAM)[0] ?? ''}${encodeURIComponent(id)}`,
  successStatus: Number(Object.keys(route.responses).find((status) => status.startsWith('2'))),
  requiredPath: requiredPathOf(route),
  validBody: validBodyFor(name, route),
  makeResource: factoryFor(name, route),
}));

/** The routes that address one resource by id. */
export const idRoutes = routes.filter((r) => r.hasId);
