import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { ValidationIssue } from '@webhook-scheduler/contract';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PREFIX = 'whs_';
const SECRET_LENGTH = 40;
const VISIBLE_LENGTH = 8;
const KEY_SHAPE = /^whs_[0-9A-Za-z]{32,128}$/;

/** A freshly generated API key: the key itself is shown once, only its hash and prefix are stored. */
export interface GeneratedKey {
  key: string;
  prefix: string;
  hash: string;
}

/** Generates `whs_` + 40 random base62 characters (about 238 bits). */
export function generateApiKey(): GeneratedKey {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62.charAt(randomInt(BASE62.length));
  const key = KEY_PREFIX + secret;
  return { key, prefix: visiblePrefix(key), hash: hashApiKey(key) };
}

/** The part of a key that may be shown again, e.g. in key lists. */
export function visiblePrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + VISIBLE_LENGTH);
}

/** SHA-256 of the key, hex-encoded: what is stored and looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Whether a string has the shape of an API key at all (cheap rejection before any lookup). */
export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** Compares two hex hashes in constant time. */
export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether a stored key may authenticate at `now`. */
export function isKeyUsable(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  if (key.revokedAt) return false;
  return !key.expiresAt || key.expiresAt > now;
}

/** Extracts the token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** A key created to expire must expire in the future. */
export function keyExpiryIssues(expiresAt: Date | null, now: Date): ValidationIssue[] {
  if (expiresAt === null || expiresAt > now) return [];
  return [{ path: ['expires_at'], message: 'expires_at must be in the future' }];
}
