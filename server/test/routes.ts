import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { CronInput, EventInput, contract } from '@webhook-scheduler/contract';
import { cronBody, eventBody, makeCron, makeEvent } from './factories.js';

/** One route of the contract, with what a test needs to call it. */
export interface RouteCase {
  /** e.g. `crons.update`. */
  name: string;
  route: AppRoute;
  /** Whether the path addresses one resource through `:id`. */
  hasId: boolean;
  /** Whether the route takes a JSON body. */
  hasBody: boolean;
  /** The route's path with `:id` replaced. */
  path(id?: string): string;
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

function validBodyFor(name: string, route: AppRoute): () => unknown {
  if (route.method === 'GET' || route.method === 'DELETE') return () => undefined;
  if (route.body === CronInput) return () => cronBody();
  if (route.body === EventInput) return () => eventBody();
  throw new Error(`test/routes.ts has no sample body for ${name}: add one`);
}

function factoryFor(name: string, route: AppRoute): RouteCase['makeResource'] {
  if (route.path.startsWith('/api/v1/crons')) return async (em, teamId) => (await makeCron(em, teamId)).id;
  // A manual pending event: the one every verb may act on, so only team scoping can refuse it.
  if (route.path.startsWith('/api/v1/events')) return async (em, teamId) => (await makeEvent(em, teamId)).id;
  throw new Error(`test/routes.ts has no factory for the resource of ${name}: add one`);
}

/** Every route of the contract, found by walking it, so a new route is covered without editing tests. */
export const routes: RouteCase[] = collect(contract, '').map(([name, route]) => ({
  name,
  route,
  hasId: route.path.includes(':id'),
  hasBody: route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH',
  path: (id = randomUUID()) => route.path.replace(':id', encodeURIComponent(id)),
  validBody: validBodyFor(name, route),
  makeResource: factoryFor(name, route),
}));

/** The routes that address one resource by id. */
export const idRoutes = routes.filter((r) => r.hasId);
