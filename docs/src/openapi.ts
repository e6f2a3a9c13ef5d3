import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from '@webhook-scheduler/contract';
import { EXAMPLES, type RouteKey, STATUS_DESCRIPTIONS } from './examples.js';

interface MediaType {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  operationId: RouteKey;
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}
type Paths = Record<string, Record<string, Operation>>;

// The contract parses page and limit from strings, so the generator cannot see they are integers.
const INTEGER_QUERY: Record<string, Record<string, unknown>> = {
  page: { type: 'integer', minimum: 0, default: 0 },
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
};

function json(content: Record<string, MediaType> | undefined): MediaType {
  const media = content?.['application/json'];
  if (!media) throw new Error('an operation has a body that is not application/json');
  return media;
}

/** Adds the examples, the response descriptions and the integer types the generator cannot infer. */
function decorate(operation: Operation): void {
  const examples = EXAMPLES[operation.operationId];
  if (operation.requestBody) json(operation.requestBody.content).example = examples.request;
  for (const [status, response] of Object.entries(operation.responses)) {
    response.description = STATUS_DESCRIPTIONS[Number(status)] ?? response.description;
    if (response.content) json(response.content).example = examples.responses[Number(status)];
  }
  for (const parameter of operation.parameters ?? []) {
    const integer = parameter.in === 'query' ? INTEGER_QUERY[parameter.name] : undefined;
    if (integer) parameter.schema = { ...integer };
  }
}

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
  // openapi3-ts types paths as `any`.
  const paths: unknown = document.paths;
  for (const operations of Object.values(paths as Paths)) {
    for (const operation of Object.values(operations)) decorate(operation);
  }
  return document;
}
