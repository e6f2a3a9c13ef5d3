import { describe, expect, it } from 'vitest';
import {
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SESSION_TOUCH_MS,
  changesState,
  csrfMatches,
  csrfTokenFor,
  generateSessionToken,
  hashSessionToken,
  isSessionUsable,
  looksLikeSessionToken,
  readCookie,
  sessionExpiry,
  shouldTouchSession,
} from './session.rules.js';

describe('session tokens', () => {
  it('are 43 base64url characters, different each time', () => {
    const tokens = new Set(Array.from({ length: 100 }, generateSessionToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(looksLikeSessionToken(token)).toBe(true);
  });

  it.each(['', 'short', 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`, `${'a'.repeat(42)};`])(
    'refuses the cookie value %j as a token',
    (value) => {
      expect(looksLikeSessionToken(value)).toBe(false);
    },
  );

  it('hash to a hex SHA-256 that does not contain the token', () => {
    const token = generateSessionToken();
    expect(hashSessionToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionToken(token)).toBe(hashSessionToken(token));
    expect(hashSessionToken(token)).not.toContain(token);
  });
});

describe('csrf tokens', () => {
  it('are derived from the session token and differ between sessions', () => {
    const a = generateSessionToken();
    const b = generateSessionToken();
    expect(csrfTokenFor(a)).toBe(csrfTokenFor(a));
    expect(csrfTokenFor(a)).not.toBe(csrfTokenFor(b));
    expect(csrfTokenFor(a)).not.toBe(hashSessionToken(a));
  });

  it('match only the exact token', () => {
    const token = csrfTokenFor(generateSessionToken());
    expect(csrfMatches(token, token)).toBe(true);
    expect(csrfMatches(token, undefined)).toBe(false);
    expect(csrfMatches(token, '')).toBe(false);
    expect(csrfMatches(token, token.slice(1))).toBe(false);
    expect(csrfMatches(token, `${token.slice(0, -1)}x`)).toBe(token.endsWith('x'));
  });
});

describe('session lifetime', () => {
  const signIn = new Date('2030-01-01T00:00:00Z');

  it('expires after the idle period from the last use', () => {
    const use = new Date(signIn.getTime() + 3600_000);
    expect(sessionExpiry(signIn, use).getTime()).toBe(use.getTime() + SESSION_IDLE_MS);
  });

  it('never extends past the absolute lifetime', () => {
    const late = new Date(signIn.getTime() + SESSION_MAX_MS - 1000);
    expect(sessionExpiry(signIn, late).getTime()).toBe(signIn.getTime() + SESSION_MAX_MS);
  });

  it('is usable until its expiry, not at it', () => {
    const expiresAt = new Date('2030-01-08T00:00:00Z');
    expect(isSessionUsable({ expiresAt }, new Date(expiresAt.getTime() - 1))).toBe(true);
    expect(isSessionUsable({ expiresAt }, expiresAt)).toBe(false);
  });

  it('is touched once per touch period', () => {
    const lastSeenAt = signIn;
    expect(shouldTouchSession({ lastSeenAt }, new Date(signIn.getTime() + SESSION_TOUCH_MS - 1))).toBe(false);
    expect(shouldTouchSession({ lastSeenAt }, new Date(signIn.getTime() + SESSION_TOUCH_MS))).toBe(true);
  });
});

describe('readCookie', () => {
  it.each<[string | undefined, string | undefined]>([
    ['whs_session=abc', 'abc'],
    ['a=1; whs_session=abc; b=2', 'abc'],
    ['a=1;whs_session="abc"', 'abc'],
    ['xwhs_session=abc', undefined],
    ['whs_session_other=abc', undefined],
    ['whs_session', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, expected) => {
    expect(readCookie(header, 'whs_session')).toBe(expected);
  });
});

describe('changesState', () => {
  it.each([
    ['GET', false],
    ['HEAD', false],
    ['OPTIONS', false],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', true],
  ])('returns %s → %s', (method, expected) => {
    expect(changesState(method)).toBe(expected);
  });
});
