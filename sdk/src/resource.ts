import { type Page, paginate } from './paginate.js';
import type { Route } from './routes.js';
import type { CreateOptions, RequestOptions, Send } from './transport.js';

/** The body of a successful delete. */
export interface DeleteResult {
  /** Always `true`: a failed delete rejects instead. */
  success: boolean;
}

/**
 * The calls of one resource, one per contract route (`list`, `create`, `get`, `update`, `delete`),
 * plus `listAll`, which walks every page.
 */
export interface Resource<Item, Input, Query extends { page?: number }> {
  /**
   * One page of the list, newest first (`page` is 0-based; `limit` 1–1000, default 100). A page past
   * the end rejects at once (not retried) with a 500 `INTERNAL_SERVER_ERROR` whose `details` are
   * `{ page, limit, total }`.
   */
  list(query?: Query, options?: RequestOptions): Promise<Page<Item>>;
  /**
   * Creates one and returns it as stored, defaults applied. Sent with an `Idempotency-Key` (a fresh
   * one unless `options.idempotencyKey` is given), so it is retried like the other calls without
   * ever creating twice.
   */
  create(input: Input, options?: CreateOptions): Promise<Item>;
  /** Reads one by id; a missing id or another team's rejects with `NOT_FOUND`. */
  get(id: string, options?: RequestOptions): Promise<Item>;
  /** Replaces one entirely (omitted optional fields take their defaults) and returns it. */
  update(id: string, input: Input, options?: RequestOptions): Promise<Item>;
  /** Deletes one. */
  delete(id: string, options?: RequestOptions): Promise<DeleteResult>;
  /**
   * Every item matching `query`, newest first, as an async iterator: pages are fetched one at a
   * time as the loop reaches them. Items created or deleted during the loop can shift pages, so
   * collect what you mean to change before changing it. When deletions leave the next page past the
   * end, the loop simply ends.
   */
  listAll(query?: Omit<Query, 'page'>, options?: RequestOptions): AsyncGenerator<Item, void, undefined>;
}

interface ResourceRoutes {
  list: Route;
  create: Route;
  get: Route;
  update: Route;
  delete: Route;
}

/** The calls of one resource over `send`. */
export function createResource<Item, Input, Query extends { page?: number }>(
  send: Send,
  routes: ResourceRoutes,
): Resource<Item, Input, Query> {
  const list = (query: object | undefined, options: RequestOptions | undefined) =>
    send<Page<Item>>(routes.list, { ...options, ...(query ? { query } : {}) });
  return {
    list: (query, options) => list(query, options),
    create: async (input, options) => {
      const idempotencyKey = options?.idempotencyKey ?? crypto.randomUUID();
      return (await send<{ data: Item }>(routes.create, { ...options, body: input, idempotencyKey })).data;
    },
    get: async (id, options) => (await send<{ data: Item }>(routes.get, { ...options, id })).data,
    update: async (id, input, options) =>
      (await send<{ data: Item }>(routes.update, { ...options, id, body: input })).data,
    delete: async (id, options) =>
      (await send<{ data: DeleteResult }>(routes.delete, { ...options, id })).data,
    listAll: (query, options) => paginate((page) => list({ ...query, page }, options)),
  };
}
