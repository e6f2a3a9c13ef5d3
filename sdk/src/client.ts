import type {
  Cron,
  CronInput,
  CronListQuery,
  CronPatch,
  Destination,
  DestinationListQuery,
  DestinationPatch,
  Event,
  EventInput,
  EventListQuery,
  EventReplayFilter,
  EventReplayResult,
} from './contract-types.js';
import { type Page, paginate } from './paginate.js';
import { type Resource, createResource } from './resource.js';
import { ROUTES, type Route } from './routes.js';
import {
  type ClientOptions,
  type CreateOptions,
  type RequestOptions,
  type Send,
  createTransport,
} from './transport.js';

/** Recurring webhooks: `list`, `create`, `get`, `update`, `patch`, `trigger`, `delete` and `listAll`. */
export interface CronsResource extends Resource<Cron, CronInput, CronListQuery> {
  /** Changes only the fields given (the others keep their value) and returns the cron. */
  patch(id: string, changes: CronPatch, options?: RequestOptions): Promise<Cron>;
  /**
   * Runs the cron now: one event from its current definition, due at once (inactive crons too);
   * the schedule does not move.
   */
  trigger(id: string, options?: RequestOptions): Promise<Event>;
}

/**
 * One-time webhooks and their outcomes: `list`, `create`, `createMany`, `replayMany`, `replay`, `get`,
 * `update`, `delete` and `listAll`.
 */
export interface EventsResource extends Resource<Event, EventInput, EventListQuery> {
  /**
   * Schedules 1 to 1,000 events in one request: all or none (a `VALIDATION_ERROR` whose paths
   * start with `["events", index]`). Resolves to the events in the order given. Retried safely,
   * like `create`.
   */
  createMany(inputs: EventInput[], options?: CreateOptions): Promise<Event[]>;
  /**
   * Replays, in one transaction, every finished original event of the team the filter matches (at
   * most 10,000; more rejects with `BAD_REQUEST` whose details give the count), each as `replay`
   * does: all or none within the team's pending quotas. Resolves to how many were replayed and the
   * first 100 new events. Retried safely, like `create`.
   */
  replayMany(filter: EventReplayFilter, options?: CreateOptions): Promise<EventReplayResult>;
  /** Schedules a finished (`success` or `failed`) event again, due now, as a new event with `replay_of` set. */
  replay(id: string, options?: RequestOptions): Promise<Event>;
}

/**
 * The origins the team's webhooks call (scheme, host and port): `list`, `get`, `patch` and `listAll`.
 * An origin is given as written (`https://hooks.example.com`); the client encodes it in the path.
 */
export interface DestinationsResource {
  /** One page of the team's destinations, most recently called first (or by `origin`). */
  list(query?: DestinationListQuery, options?: RequestOptions): Promise<Page<Destination>>;
  /** One destination; an origin the team never used rejects with `NOT_FOUND`. */
  get(origin: string, options?: RequestOptions): Promise<Destination>;
  /**
   * Sets the team's rate limit, most calls at once or pause for the origin (before its first event
   * too); fields left out keep their value, `null` clears one.
   */
  patch(origin: string, changes: DestinationPatch, options?: RequestOptions): Promise<Destination>;
  /** Every destination, page by page, as an async iterator. */
  listAll(
    query?: Omit<DestinationListQuery, 'page'>,
    options?: RequestOptions,
  ): AsyncGenerator<Destination, void, undefined>;
}

const post = async <T>(send: Send, route: Route, id: string, options: RequestOptions | undefined) =>
  (await send<{ data: T }>(route, { ...options, id })).data;

function cronsResource(send: Send): CronsResource {
  return {
    ...createResource<Cron, CronInput, CronListQuery>(send, ROUTES.crons),
    patch: async (id, changes, options) =>
      (await send<{ data: Cron }>(ROUTES.crons.patch, { ...options, id, body: changes })).data,
    trigger: (id, options) => post<Event>(send, ROUTES.crons.trigger, id, options),
  };
}

function eventsResource(send: Send): EventsResource {
  return {
    ...createResource<Event, EventInput, EventListQuery>(send, ROUTES.events),
    createMany: async (inputs, options) => {
      const idempotencyKey = options?.idempotencyKey ?? crypto.randomUUID();
      const call = { ...options, body: { events: inputs }, idempotencyKey };
      return (await send<{ data: Event[] }>(ROUTES.events.createMany, call)).data;
    },
    replayMany: (filter, options) => {
      const idempotencyKey = options?.idempotencyKey ?? crypto.randomUUID();
      return send<EventReplayResult>(ROUTES.events.replayMany, { ...options, body: filter, idempotencyKey });
    },
    replay: (id, options) => post<Event>(send, ROUTES.events.replay, id, options),
  };
}

function destinationsResource(send: Send): DestinationsResource {
  const list = (query: DestinationListQuery | undefined, options: RequestOptions | undefined) =>
    send<Page<Destination>>(ROUTES.destinations.list, { ...options, ...(query ? { query } : {}) });
  return {
    list,
    get: async (origin, options) =>
      (await send<{ data: Destination }>(ROUTES.destinations.get, { ...options, id: origin })).data,
    patch: async (origin, changes, options) =>
      (
        await send<{ data: Destination }>(ROUTES.destinations.patch, {
          ...options,
          id: origin,
          body: changes,
        })
      ).data,
    listAll: (query, options) => paginate((page) => list({ ...query, page }, options)),
  };
}

/** A client of the Webhook Scheduler API. */
export interface WebhookSchedulerClient {
  /** Recurring webhooks. */
  crons: CronsResource;
  /** One-time webhooks, the events crons create, and the outcome of each call. */
  events: EventsResource;
  /** The origins the webhooks call: their health, and the team's rate limits, concurrency and pauses. */
  destinations: DestinationsResource;
}

/**
 * Creates a client of the `/api/v1` API.
 *
 * Every call resolves to the API's data or rejects with a {@link WebhookSchedulerError} (an error
 * status), a {@link TimeoutError} or a {@link NetworkError}; calls are retried on network errors,
 * 429 and 5xx with exponential backoff and `Retry-After` — creates too, as each carries an
 * `Idempotency-Key` that makes the service create it once.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.WEBHOOK_SCHEDULER_API_KEY });
 * const event = await client.events.create({ webhook_url: 'https://example.com/hook', scheduled_at: '2030-01-01T09:00:00Z' });
 */
export function createClient(options: ClientOptions): WebhookSchedulerClient {
  const send = createTransport(options);
  return {
    crons: cronsResource(send),
    events: eventsResource(send),
    destinations: destinationsResource(send),
  };
}
