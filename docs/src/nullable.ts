import { type Schema, mapChildren } from './schema-walk.js';

/**
 * Rewrites OpenAPI 3.0's `nullable: true` (what the generator emits) as OpenAPI 3.1 / JSON Schema
 * 2020-12 says it: `null` among the types. A schema with no type (any JSON value) already allows
 * null, and a `$ref` cannot carry a type, so it becomes `anyOf: [$ref, null]`.
 */
export function nullableAsJsonSchema(schema: Schema): Schema {
  const { nullable, ...rest } = mapChildren(schema, nullableAsJsonSchema);
  if (nullable !== true) return rest;
  if (typeof rest.$ref === 'string') {
    const { $ref, ...annotations } = rest;
    return { anyOf: [{ $ref }, { type: 'null' }], ...annotations };
  }
  if (typeof rest.type === 'string') {
    const withNull: Schema = { ...rest, type: [rest.type, 'null'] };
    if (Array.isArray(rest.enum)) withNull.enum = [...(rest.enum as unknown[]), null];
    return withNull;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = rest[key];
    if (Array.isArray(list)) return { ...rest, [key]: [...(list as unknown[]), { type: 'null' }] };
  }
  return rest;
}
