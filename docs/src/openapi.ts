import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from '@webhook-scheduler/contract';

/** The OpenAPI 3 document of the whole `/api/v1` API, generated from the contract. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Webhook Scheduler API',
        version: '1.0.0',
        description:
          'Schedule outbound HTTP requests (webhooks): one-time events and recurring crons, with retries and a record of every call’s outcome.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: whs_…' } },
      },
      security: [{ bearerAuth: [] }],
    },
    { setOperationId: 'concatenated-path', jsonQuery: false },
  );
  return document;
}
