import { initContract } from '@ts-rest/core';
import { ErrorBody } from './common.js';
import { cronsContract } from './crons.js';
import { destinationsContract } from './destinations.js';
import { eventsContract } from './events.js';

export * from './alerts.js';
export * from './common.js';
export * from './crons.js';
export * from './destinations.js';
export * from './events.js';
export * from './limits.js';
export * from './dashboard/index.js';

const c = initContract();

/** Error statuses every `/api/v1` route can answer with, all in the `ErrorBody` shape. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

/** The whole `/api/v1` API: crons, events and destinations, each route with its success and error responses. */
export const contract = c.router(
  { crons: cronsContract, events: eventsContract, destinations: destinationsContract },
  { pathPrefix: '/api/v1', commonResponses: errorResponses, strictStatusCodes: true },
);

/** The type of the whole contract. */
export type Contract = typeof contract;
