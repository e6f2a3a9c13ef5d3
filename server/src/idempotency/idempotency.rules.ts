import { createHash } from 'node:crypto';

/** How long a key is remembered (docs/reference/behaviour.md#idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** JSON with every object's keys sorted: two bodies that differ only in key order are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What identifies a request for its key: the route and the body as sent. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/**
 * The advisory lock that marks a key as being handled: 64 bits of a hash of team and key, as the
 * signed bigint PostgreSQL takes. Two keys sharing a lock only make one wait for the other's 409.
 */
export function lockIdOf(teamId: string, key: string): string {
  const digest = createHash('sha256').update(`${teamId}\u0000${key}`).digest();
  return digest.readBigInt64BE(0).toString();
}

/** Answers worth remembering: 2xx and 4xx; a 5xx may be retried (same section). */
export const isRemembered = (status: number): boolean => status < 500;
