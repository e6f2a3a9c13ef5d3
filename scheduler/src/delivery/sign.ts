import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const MAX_CACHED_KEYS = 256;
// createHmac with a KeyObject is ~6x faster than with a Buffer (which Node turns into a key object
// on every call), and base64-decoding per call costs as much again: decode each secret once.
const keys = new Map<string, KeyObject>();

/**
 * The HMAC key of a Standard Webhooks secret: the base64 after the `whsec_` prefix (a secret without
 * the prefix is read as plain base64, as the reference libraries do).
 */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('a webhook signing secret decodes to an empty key');
  return key;
}

function cachedKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.clear();
    key = createSecretKey(signingKey(secret));
    keys.set(secret, key);
  }
  return key;
}

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per
 * secret, space-separated (two secrets during a rotation), or undefined without secrets.
 */
export function webhookSignature(
  secrets: readonly string[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string | undefined {
  if (secrets.length === 0) return undefined;
  const content = `${webhookId}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', cachedKey(secret)).update(content).digest('base64')}`)
    .join(' ');
}
