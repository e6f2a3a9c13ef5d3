/**
 * How many bytes a webhook's request takes, as the limits count it: the payload as compact JSON
 * and the custom headers as their names and values, in UTF-8. One measure for the size limits of
 * one request and for the bytes a team's pending events hold.
 */

/** The size of a payload as the limit counts it: its compact JSON text in UTF-8 bytes (null is none). */
export function payloadBytes(payload: unknown): number {
  if (payload === null || payload === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(payload), 'utf8');
}

/** The size of custom headers as the limit counts it: every name and value, in UTF-8 bytes. */
export function headersBytes(headers: Record<string, string> | null): number {
  if (!headers) return 0;
  let total = 0;
  for (const [name, value] of Object.entries(headers))
    total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total;
}

/** The bytes an event's request holds: its payload and its custom headers. */
export function requestBytes(request: { payload: unknown; headers: Record<string, string> | null }): number {
  return payloadBytes(request.payload) + headersBytes(request.headers);
}
