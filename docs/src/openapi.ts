import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from '@webhook-scheduler/contract';
import { namedSchemas, referNamedSchemas } from './components.js';
import { EXAMPLES, type RouteKey, STATUS_DESCRIPTIONS } from './examples.js';
import { nullableAsJsonSchema } from './nullable.js';
import { OPERATION_IDS, REQUEST_BODIES, REPOSITORY_URL, TAGS } from './operations.js';
import type { Schema } from './schema-walk.js';
import { alertWebhooks } from './webhooks.js';

interface MediaType {
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { description: string; required?: boolean; content: Record<string, MediaType> };
  responses: Record<
    string,
    { description: string; content?: Record<string, MediaType>; headers?: Record<string, Header> }
  >;
}
interface Header {
  description: string;
  schema: { type: 'integer'; minimum: number };
}
type Paths = Record<string, Record<string, Operation>>;

// The contract parses page and limit from strings, so the generator cannot see they are integers.
const INTEGER_QUERY: Record<string, Schema> = {
  page: { type: 'integer', minimum: 0, default: 0 },
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
};

function json(content: Record<string, MediaType> | undefined): MediaType {
  const media = content?.['application/json'];
  if (!media) throw new Error('an operation has a body that is not application/json');
  return media;
}

const integerHeader = (description: string): Header => ({
  description,
  schema: { type: 'integer', minimum: 0 },
});

/** The IETF RateLimit header fields every authenticated response carries. */
const RATE_LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Limit': integerHeader('Requests per second this API key may make.'),
  'RateLimit-Remaining': integerHeader('Requests the key may still make right now.'),
  'RateLimit-Reset': integerHeader('Seconds until the key’s allowance is full again.'),
};
const RETRY_AFTER: Record<string, Header> = {
  'Retry-After': integerHeader('Seconds to wait before sending the next request.'),
};

/** The generator's schema as published: named shapes as `$ref`s, nullability in OpenAPI 3.1 terms. */
function publish(schema: Schema): Schema {
  return nullableAsJsonSchema(referNamedSchemas(schema));
}

/**
 * Adds the examples, descriptions and the integer types the generator cannot infer, names the shapes,
 * and gives the operation an id without dots (they make odd anchors in Swagger UI).
 */
function decorate(operation: Operation): void {
  const key = operation.operationId as RouteKey;
  const examples = EXAMPLES[key];
  operation.operationId = OPERATION_IDS[key];
  if (operation.requestBody) {
    const media = json(operation.requestBody.content);
    media.example = examples.request;
    operation.requestBody.description = REQUEST_BODIES[key] ?? operation.requestBody.description;
    operation.requestBody.required = true;
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    response.description = STATUS_DESCRIPTIONS[Number(status)] ?? response.description;
    if (status !== '401')
      response.headers = { ...RATE_LIMIT_HEADERS, ...(status === '429' ? RETRY_AFTER : {}) };
    if (response.content) json(response.content).example = examples.responses[Number(status)];
  }
  for (const parameter of operation.parameters ?? []) {
    const integer = parameter.in === 'query' ? INTEGER_QUERY[parameter.name] : undefined;
    if (integer) parameter.schema = { ...integer };
  }
  const media = [
    ...Object.values(operation.requestBody?.content ?? {}),
    ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
  ];
  for (const one of media) if (one.schema) one.schema = publish(one.schema);
  for (const parameter of operation.parameters ?? []) {
    if (parameter.schema) parameter.schema = publish(parameter.schema);
  }
}

/** The OpenAPI 3.1 document of the whole `/api/v1` API, generated from the contract. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const generated = generateOpenApi(
    contract,
    {
      info: {
        title: 'Webhook Scheduler API',
        version: '1.0.0',
        description:
          'Schedule outbound HTTP requests (webhooks): one-time events and recurring crons, with retries and a record of every call’s outcome.',
        contact: { name: 'Webhook Scheduler', url: `${REPOSITORY_URL}/issues` },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: whs_…' } },
      },
      security: [{ bearerAuth: [] }],
    },
    { setOperationId: 'concatenated-path', jsonQuery: false },
  );
  // openapi3-ts types paths as `any`.
  const paths: unknown = generated.paths;
  for (const operations of Object.values(paths as Paths)) {
    for (const operation of Object.values(operations)) decorate(operation);
  }
  const schemas = Object.fromEntries(
    Object.entries(namedSchemas()).map(([name, schema]) => [name, nullableAsJsonSchema(schema)]),
  );
  const { components } = generated;
  return {
    ...generated,
    openapi: '3.1.0',
    webhooks: alertWebhooks(),
    components: { ...components, schemas },
  };
}
