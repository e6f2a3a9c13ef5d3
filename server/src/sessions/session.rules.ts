import { createHash, timingSafeEqual } from 'node:crypto';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../shared/secret-token.js';

/** The session cookie. Its value is a random token; the database keeps only its SHA-256. */
export const SESSION_COOKIE = 'whs_session';
/** A session unused this long ends. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** A session ends this long after sign-in, however much it is used. */
export const SESSION_MAX_MS = 30 * 24 * 3600_000;
/** How often a used session's expiry is pushed back (at most one write per session per period). */
export const SESSION_TOUCH_MS = 5 * 60_000;

/** 32 random bytes, base64url: the value of the session cookie. */
export const generateSessionToken = generateSecretToken;

/** Whether a cookie value has the shape of a session token (cheap rejection before any lookup). */
export const looksLikeSessionToken = looksLikeSecretToken;

/** SHA-256 of the token, hex-encoded: what is stored and looked up. */
export const hashSessionToken = hashSecretToken;

/**
 * The CSRF token of a session, derived from its secret token: the page reads it from the session
 * response (the cookie itself is httpOnly) and echoes it in a header another site cannot set.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

/** Compares a CSRF token in constant time. */
export function csrfMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** When a session used at `now` expires: idle expiry, capped by the absolute lifetime. */
export function sessionExpiry(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_MAX_MS));
}

/** Whether a session may authenticate at `now`. */
export function isSessionUsable(session: { expiresAt: Date }, now: Date): boolean {
  return session.expiresAt > now;
}

/** Whether a use at `now` should push the session's expiry back. */
export function shouldTouchSession(session: { lastSeenAt: Date }, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS;
}

/** The value of one cookie in a `Cookie` header; undefined when absent or malformed. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at === -1 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

/** Which methods change state and so need the CSRF header. */
export function changesState(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
