/** A JSON Schema object as the generator emits it. */
export type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds a schema bottom-up, or top-down where `visit` answers: `visit` returns a replacement for a
 * node (whose children are then left alone) or undefined to descend into the node's subschemas.
 */
export function mapSchema(schema: Schema, visit: (node: Schema) => Schema | undefined): Schema {
  const replaced = visit(schema);
  if (replaced) return replaced;
  return mapChildren(schema, (child) => mapSchema(child, visit));
}

/** The schema with each direct subschema passed through `map`. */
export function mapChildren(schema: Schema, map: (child: Schema) => Schema): Schema {
  const out: Schema = { ...schema };
  const { properties, items, additionalProperties, not } = schema;
  if (isSchema(properties)) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, isSchema(child) ? map(child) : child]),
    );
  }
  if (isSchema(items)) out.items = map(items);
  if (isSchema(additionalProperties)) out.additionalProperties = map(additionalProperties);
  if (isSchema(not)) out.not = map(not);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((child: unknown) => (isSchema(child) ? map(child) : child));
  }
  return out;
}
