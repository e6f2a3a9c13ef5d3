import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataOf } from '../common.js';
import { TeamParams } from './common.js';

const c = initContract();

/** Whether a team's webhook calls carry the W3C `traceparent` of their delivery attempt. */
export const TeamTracing = z.object({
  send_traceparent: z
    .boolean()
    .describe(
      'Send a W3C `traceparent` header with each webhook call, so the receiver’s trace continues the ' +
        'delivery attempt’s. Takes effect only where the service exports traces (OTEL_EXPORTER_OTLP_ENDPOINT).',
    ),
});
/** Whether a team's webhook calls carry the W3C `traceparent` of their delivery attempt. */
export type TeamTracing = z.infer<typeof TeamTracing>;

/** The body that turns a team's `traceparent` header on or off. */
export const TeamTracingInput = TeamTracing.strict();
/** The body that turns a team's `traceparent` header on or off, as sent. */
export type TeamTracingInput = z.input<typeof TeamTracingInput>;

/** A team's trace propagation to its receivers (off by default). */
export const tracingContract = c.router({
  get: {
    method: 'GET',
    path: '/teams/:teamId/tracing',
    pathParams: TeamParams,
    responses: { 200: dataOf(TeamTracing) },
    summary: 'Show the trace propagation setting',
    description: 'Any member: whether webhook calls carry a W3C traceparent header.',
  },
  set: {
    method: 'PUT',
    path: '/teams/:teamId/tracing',
    pathParams: TeamParams,
    body: TeamTracingInput,
    responses: { 200: dataOf(TeamTracing) },
    summary: 'Turn the traceparent header on or off',
    description: 'Owners only: what the team’s receivers are sent is the owners’ decision.',
  },
});
