import type { Cron, CronInput, CronListQuery, Event, EventInput, EventListQuery } from './contract-types.js';
import { type Resource, createResource } from './resource.js';
import { ROUTES } from './routes.js';
import { type ClientOptions, createTransport } from './transport.js';

/** Recurring webhooks: `list`, `create`, `get`, `update`, `delete` and `listAll`. */
export type CronsResource = Resource<Cron, CronInput, CronListQuery>;

/** One-time webhooks and their outcomes: `list`, `create`, `get`, `update`, `delete` and `listAll`. */
export type EventsResource = Resource<Event, EventInput, EventListQuery>;

/** A client of the Webhook Scheduler API. */
export interface WebhookSchedulerClient {
  /** Recurring webhooks. */
  crons: CronsResource;
  /** One-time webhooks, the events crons create, and the outcome of each call. */
  events: EventsResource;
}

/**
 * Creates a client of the `/api/v1` API.
 *
 * Every call resolves to the API's data or rejects with a {@link WebhookSchedulerError} (an error
 * status), a {@link TimeoutError} or a {@link NetworkError}; GET, PUT and DELETE are retried on
 * network errors, 429 and 5xx with exponential backoff and `Retry-After`; POST never is.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.WEBHOOK_SCHEDULER_API_KEY });
 * const event = await client.events.create({ webhook_url: 'https://example.com/hook', scheduled_at: '2030-01-01T09:00:00Z' });
 */
export function createClient(options: ClientOptions): WebhookSchedulerClient {
  const send = createTransport(options);
  return {
    crons: createResource<Cron, CronInput, CronListQuery>(send, ROUTES.crons),
    events: createResource<Event, EventInput, EventListQuery>(send, ROUTES.events),
  };
}
