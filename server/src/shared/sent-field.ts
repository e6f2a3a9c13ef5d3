/** A field of a request body or query as sent, before any validation: undefined unless it is an object's. */
export function sentField(sent: unknown, name: string): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
  return Object.hasOwn(sent, name) ? (sent as Record<string, unknown>)[name] : undefined;
}
