import type { RouteKey } from './examples.js';

/** Where the project lives: the document's contact, the SDK's metadata and the delivery User-Agent name it. */
export const REPOSITORY_URL = 'https://github.com/webhook-scheduler/webhook-scheduler';

/** Operation ids as generated clients name their functions: verb first, no dots. */
export const OPERATION_IDS: Record<RouteKey, string> = {
  'crons.list': 'listCrons',
  'crons.create': 'createCron',
  'crons.get': 'getCron',
  'crons.update': 'replaceCron',
  'crons.patch': 'updateCron',
  'crons.trigger': 'triggerCron',
  'crons.delete': 'deleteCron',
  'events.list': 'listEvents',
  'events.create': 'createEvent',
  'events.createMany': 'createEvents',
  'events.replayMany': 'replayEvents',
  'events.replay': 'replayEvent',
  'events.get': 'getEvent',
  'events.update': 'replaceEvent',
  'events.delete': 'deleteEvent',
  'destinations.list': 'listDestinations',
  'destinations.get': 'getDestination',
  'destinations.patch': 'updateDestination',
};

/** What each request body is, in the words a generated client shows. */
export const REQUEST_BODIES: Partial<Record<RouteKey, string>> = {
  'crons.create': 'The cron to create. Optional fields left out take their defaults.',
  'crons.update': 'The whole new definition of the cron: optional fields left out take their defaults.',
  'crons.patch': 'The fields of the cron to change; fields left out keep their values.',
  'events.create': 'The event to schedule. Optional fields left out take their defaults.',
  'events.createMany': 'The events to schedule, all or none. Optional fields left out take their defaults.',
  'events.replayMany':
    'The filter of the finished events to replay: status, and optionally cron_id, destination and a scheduled time window.',
  'events.update':
    'The whole new definition of the pending event: optional fields left out take their defaults.',
  'destinations.patch':
    'The team’s settings for the origin to change; fields left out keep their values, null clears one.',
};

/** The document's tags, one per resource, in the order a reader meets them. */
export const TAGS = [
  {
    name: 'events',
    description: 'One-time webhook calls and the recorded outcome of every call, retries included.',
  },
  {
    name: 'crons',
    description: 'Recurring webhooks: each occurrence of the schedule becomes a pending event.',
  },
  {
    name: 'destinations',
    description:
      'The origins the webhooks call: their health (circuit breaker, Retry-After) and the team’s rate limit, concurrency and pause for each.',
  },
  {
    name: 'alerts',
    description:
      'Signed messages the service sends to a team’s alert URL: failed events, paused crons, circuits opened and closed.',
  },
];
