import { createHash, randomBytes } from 'node:crypto';

const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * 32 random bytes, base64url: the secret of a session cookie or of a one-time link. Only its
 * SHA-256 is stored, so a leaked table hands out nothing.
 */
export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of the token, hex-encoded: what is stored and looked up. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a value has the shape of a secret token at all (cheap rejection before any lookup). */
export function looksLikeSecretToken(value: string): boolean {
  return SHAPE.test(value);
}
