import type { Contract } from '@webhook-scheduler/contract';

/** The method and path of one route. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

type RoutesOf<Router> = {
  [Key in keyof Router]: Router[Key] extends { method: infer Method; path: infer Path }
    ? { method: Method; path: Path }
    : never;
};

// `satisfies` ties every method and path to the contract: a renamed path, a changed method or a
// route added to the contract without an entry here fails to compile. The contract is imported
// for its type only, so neither it nor zod reaches the bundle.
/** Every `/api/v1` route the client calls, as declared in the contract. */
export const ROUTES = {
  crons: {
    list: { method: 'GET', path: '/api/v1/crons' },
    create: { method: 'POST', path: '/api/v1/crons' },
    get: { method: 'GET', path: '/api/v1/crons/:id' },
    update: { method: 'PUT', path: '/api/v1/crons/:id' },
    patch: { method: 'PATCH', path: '/api/v1/crons/:id' },
    trigger: { method: 'POST', path: '/api/v1/crons/:id/trigger' },
    delete: { method: 'DELETE', path: '/api/v1/crons/:id' },
  },
  events: {
    list: { method: 'GET', path: '/api/v1/events' },
    create: { method: 'POST', path: '/api/v1/events' },
    createMany: { method: 'POST', path: '/api/v1/events/batch' },
    replayMany: { method: 'POST', path: '/api/v1/events/replay' },
    replay: { method: 'POST', path: '/api/v1/events/:id/replay' },
    get: { method: 'GET', path: '/api/v1/events/:id' },
    update: { method: 'PUT', path: '/api/v1/events/:id' },
    delete: { method: 'DELETE', path: '/api/v1/events/:id' },
  },
  destinations: {
    list: { method: 'GET', path: '/api/v1/destinations' },
    get: { method: 'GET', path: '/api/v1/destinations/:origin' },
    patch: { method: 'PATCH', path: '/api/v1/destinations/:origin' },
  },
} as const satisfies { [Group in keyof Contract]: RoutesOf<Contract[Group]> };

/** The route's path with its parameter (`:id`, `:origin`) filled in, URL-encoded. */
export function pathOf(route: Route, id?: string): string {
  if (id === undefined) return route.path;
  return route.path.replace(/:[a-z]+/, encodeURIComponent(id));
}
