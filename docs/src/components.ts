import { isDeepStrictEqual } from 'node:util';
import { generateSchema } from '@anatine/zod-openapi';
import {
  BackoffType,
  CircuitClosedAlert,
  CircuitOpenedAlert,
  CircuitState,
  Cron,
  CronInput,
  CronPatch,
  CronPausedAlert,
  CronRunStatus,
  DeleteResult,
  Destination,
  DestinationPatch,
  DestinationRateLimit,
  ErrorBody,
  ErrorCode,
  Event,
  EventBatchInput,
  EventFailedAlert,
  EventInput,
  EventReplayFilter,
  EventReplayResult,
  EventStatus,
  HttpMethod,
  Pagination,
  PausedReason,
  RateLimitPer,
  ReplayStatus,
  RetryConfig,
  RetryConfigInput,
  ValidationIssue,
  dataOf,
  pageOf,
} from '@webhook-scheduler/contract';
import { z } from 'zod';
import { type Schema, mapChildren, mapSchema } from './schema-walk.js';

/**
 * The shapes that get a name in `components.schemas`. `input` is the form a request body accepts
 * (defaults shown), `output` the form a response carries; each is generated as ts-rest generates it.
 */
const NAMED: Record<string, { schema: z.ZodTypeAny; side: 'input' | 'output' | 'message' }> = {
  Event: { schema: Event, side: 'output' },
  EventInput: { schema: EventInput, side: 'input' },
  EventResponse: { schema: dataOf(Event), side: 'output' },
  EventList: { schema: pageOf(Event), side: 'output' },
  EventBatchInput: { schema: EventBatchInput, side: 'input' },
  EventBatchResponse: { schema: z.object({ data: z.array(Event) }), side: 'output' },
  EventReplayFilter: { schema: EventReplayFilter, side: 'input' },
  EventReplayResult: { schema: EventReplayResult, side: 'output' },
  ReplayStatus: { schema: ReplayStatus, side: 'output' },
  EventStatus: { schema: EventStatus, side: 'output' },
  Cron: { schema: Cron, side: 'output' },
  CronInput: { schema: CronInput, side: 'input' },
  CronResponse: { schema: dataOf(Cron), side: 'output' },
  CronList: { schema: pageOf(Cron), side: 'output' },
  CronPatch: { schema: CronPatch, side: 'input' },
  Destination: { schema: Destination, side: 'output' },
  DestinationResponse: { schema: dataOf(Destination), side: 'output' },
  DestinationList: { schema: pageOf(Destination), side: 'output' },
  DestinationPatch: { schema: DestinationPatch, side: 'input' },
  DestinationRateLimit: { schema: DestinationRateLimit, side: 'output' },
  RateLimitPer: { schema: RateLimitPer, side: 'output' },
  CircuitState: { schema: CircuitState, side: 'output' },
  // Enums are named even where only one schema uses them: a generator makes one type of a named
  // enum, but one per use (three for last_status in one Python client) of an inline one.
  CronRunStatus: { schema: CronRunStatus, side: 'output' },
  PausedReason: { schema: PausedReason, side: 'output' },
  DeleteResult: { schema: DeleteResult, side: 'output' },
  RetryConfig: { schema: RetryConfig, side: 'output' },
  RetryConfigInput: { schema: RetryConfigInput, side: 'input' },
  BackoffType: { schema: BackoffType, side: 'output' },
  HttpMethod: { schema: HttpMethod, side: 'output' },
  Pagination: { schema: Pagination, side: 'output' },
  ErrorResponse: { schema: ErrorBody, side: 'output' },
  ErrorCode: { schema: ErrorCode, side: 'output' },
  ValidationIssue: { schema: ValidationIssue, side: 'output' },
  // The alert messages of the `webhooks` section.
  EventFailedAlert: { schema: EventFailedAlert, side: 'message' },
  CronPausedAlert: { schema: CronPausedAlert, side: 'message' },
  CircuitOpenedAlert: { schema: CircuitOpenedAlert, side: 'message' },
  CircuitClosedAlert: { schema: CircuitClosedAlert, side: 'message' },
};

/**
 * A message's `type` as the one value it is (`const`), not an enum of one: it names the message, so
 * it is no enum a generator should make a type of.
 */
function typeAsConst(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const type = properties?.type;
  const values: unknown = type?.enum;
  if (!properties || !type || !Array.isArray(values) || values.length !== 1) return schema;
  const { enum: _values, ...rest } = type;
  const value: unknown = values[0];
  return { ...schema, properties: { ...properties, type: { ...rest, const: value } } };
}

/** What a use of a shape may add around it: its own description, a default, nullability. */
function withoutWrapping(schema: Schema): Schema {
  const { description: _description, default: _default, nullable: _nullable, ...shape } = schema;
  return shape;
}

const generated = Object.entries(NAMED).map(([name, { schema, side }]) => {
  const generatedSchema = generateSchema(schema, side !== 'input') as Schema;
  const full = side === 'message' ? typeAsConst(generatedSchema) : generatedSchema;
  return { name, full, shape: withoutWrapping(full) };
});

/** A `$ref` to the named shape the node has, keeping what the use adds around it; else undefined. */
function referenceTo(node: Schema): Schema | undefined {
  const shape = withoutWrapping(node);
  const named = generated.find((candidate) => isDeepStrictEqual(candidate.shape, shape));
  if (!named) return undefined;
  const reference: Schema = { $ref: `#/components/schemas/${named.name}` };
  if (node.description !== undefined && node.description !== named.full.description) {
    reference.description = node.description;
  }
  if ('default' in node) reference.default = node.default;
  if (node.nullable === true) reference.nullable = true;
  return reference;
}

/** Replaces every named shape in the schema (the root included) by a `$ref` to it. */
export function referNamedSchemas(schema: Schema): Schema {
  return mapSchema(schema, referenceTo);
}

/**
 * Moves each property's `default` into its description. openapi-typescript (and generators like it)
 * read a property with a default as always present, which is true of a response but makes every
 * defaulted field of a named request body required; the words keep the default for readers.
 */
function defaultsInWords(schema: Schema): Schema {
  const { properties } = schema;
  if (typeof properties !== 'object' || properties === null) return schema;
  const described = Object.entries(properties as Record<string, Schema>).map(([name, property]) => {
    if (!('default' in property)) return [name, property] as const;
    const { default: value, ...rest } = property;
    const said = `Default: ${JSON.stringify(value)}.`;
    const description = typeof rest.description === 'string' ? `${rest.description} ${said}` : said;
    return [name, { ...rest, description }] as const;
  });
  return { ...schema, properties: Object.fromEntries(described) };
}

/**
 * `components.schemas`: each named shape with the named shapes inside it replaced by `$ref`s. An
 * unreferenced entry means the contract changed a shape without this list following (a test checks).
 */
export function namedSchemas(): Record<string, Schema> {
  return Object.fromEntries(
    generated.map(({ name, full }) => {
      const schema = mapChildren(full, referNamedSchemas);
      return [name, NAMED[name]?.side === 'input' ? defaultsInWords(schema) : schema] as const;
    }),
  );
}
