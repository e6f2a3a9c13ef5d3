import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A receiver's Standard Webhooks check, written from the spec and independent of `delivery/sign.ts`:
 * true when any `v1,` signature in `header` is the HMAC-SHA256 of `id.timestamp.body` under `secret`.
 */
export function verifiesSignature(
  secret: string,
  id: string,
  timestamp: string | number,
  body: string | Buffer,
  header: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  return header.split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
