import type { AlertMessage, AlertType } from '@webhook-scheduler/contract';

/**
 * The OpenAPI `webhooks` section: the alert messages the service POSTs to a team's alert URL
 * (docs/reference/behaviour.md#alerts), one operation each, whose body is the named schema of the
 * contract's message.
 */

interface AlertDoc {
  /** The named schema (components.schemas) of the message. */
  schema: string;
  operationId: string;
  summary: string;
  example: AlertMessage;
}

const CREATED_AT = '2030-01-07T08:00:31.412Z';

/** Each alert message: its schema's name, its operation and an example as the service sends it. */
export const ALERTS: { [Type in AlertType]: AlertDoc & { example: Extract<AlertMessage, { type: Type }> } } =
  {
    'event.failed': {
      schema: 'EventFailedAlert',
      operationId: 'eventFailedAlert',
      summary: 'An event’s final attempt failed',
      example: {
        type: 'event.failed',
        created_at: CREATED_AT,
        data: {
          event_id: '6d7a1f3b-2c4e-4b8a-9f01-5e6d7c8b9a02',
          cron_id: null,
          webhook_url: 'https://example.com/hooks/order-reminder',
          scheduled_at: '2030-01-07T08:00:00+00:00',
          response_status: 503,
          response_error: 'HTTP 503: the receiver did not answer with a 2xx status',
        },
      },
    },
    'cron.paused': {
      schema: 'CronPausedAlert',
      operationId: 'cronPausedAlert',
      summary: 'A cron was paused after failed occurrences',
      example: {
        type: 'cron.paused',
        created_at: CREATED_AT,
        data: {
          cron_id: '2f1c9a4e-8a43-4c57-9d5e-3c1b6f0a7d21',
          webhook_url: 'https://example.com/hooks/daily-report',
          consecutive_failures: 5,
          paused_reason: 'failures',
        },
      },
    },
    'destination.circuit_opened': {
      schema: 'CircuitOpenedAlert',
      operationId: 'circuitOpenedAlert',
      summary: 'The circuit to an origin opened',
      example: {
        type: 'destination.circuit_opened',
        created_at: CREATED_AT,
        data: {
          origin: 'https://hooks.example.com',
          consecutive_failures: 10,
          open_until: '2030-01-07T08:01:01.412Z',
        },
      },
    },
    'destination.circuit_closed': {
      schema: 'CircuitClosedAlert',
      operationId: 'circuitClosedAlert',
      summary: 'The circuit to an origin closed',
      example: {
        type: 'destination.circuit_closed',
        created_at: CREATED_AT,
        data: { origin: 'https://hooks.example.com' },
      },
    },
  };

const header = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** The Standard Webhooks headers every alert carries (docs/reference/behaviour.md#signing). */
const SIGNATURE_HEADERS = [
  header('webhook-id', 'The alert’s id, the same for each retry of it: de-duplicate on it.', {
    type: 'string',
  }),
  header('webhook-timestamp', 'When this attempt was signed, in Unix seconds.', { type: 'integer' }),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64>` HMAC-SHA256 signatures of `id.timestamp.body` with the team’s signing secret (two while it is rotated).',
    { type: 'string' },
  ),
];

/** The `webhooks` of the OpenAPI document, keyed by alert type. */
export function alertWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ALERTS).map(([type, alert]) => [
      type,
      {
        post: {
          operationId: alert.operationId,
          summary: alert.summary,
          description: `Sent to the team’s alert URL as a signed JSON POST (type \`${type}\`), retried like any webhook until a 2xx answer.`,
          tags: ['alerts'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            description: `The \`${type}\` alert message.`,
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${alert.schema}` },
                example: alert.example,
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx status acknowledges the alert.' },
            default: { description: 'Any other status, or no answer, fails the attempt: it is retried.' },
          },
        },
      },
    ]),
  );
}
