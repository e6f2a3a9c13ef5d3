import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  generateApiKey,
  hashApiKey,
  hashesMatch,
  isKeyUsable,
  keyExpiryIssues,
  looksLikeApiKey,
  visiblePrefix,
} from './api-key.rules.js';

describe('generateApiKey', () => {
  it('returns whs_ followed by 40 base62 characters', () => {
    const { key } = generateApiKey();
    expect(key).toMatch(/^whs_[0-9A-Za-z]{40}$/);
  });

  it('returns a different key each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it('returns the SHA-256 of the key and its visible prefix', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(visiblePrefix(key)).toBe(prefix);
  });
});

describe('looksLikeApiKey', () => {
  it.each([
    ['whs_' + 'a'.repeat(40), true],
    ['whs_' + 'a'.repeat(32), true],
    ['whs_' + 'a'.repeat(31), false],
    ['whs_' + 'a'.repeat(39) + '-', false],
    ['sk_' + 'a'.repeat(40), false],
    ['', false],
  ])('returns %s → %s', (value, expected) => {
    expect(looksLikeApiKey(value)).toBe(expected);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});

describe('hashesMatch', () => {
  it('returns true only for equal hashes', () => {
    const hash = hashApiKey('x');
    expect(hashesMatch(hash, hashApiKey('x'))).toBe(true);
    expect(hashesMatch(hash, hashApiKey('y'))).toBe(false);
    expect(hashesMatch(hash, 'abcd')).toBe(false);
  });
});

describe('isKeyUsable', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it.each([
    [{ revokedAt: null, expiresAt: null }, true],
    [{ revokedAt: new Date('2025-12-31T00:00:00Z'), expiresAt: null }, false],
    [{ revokedAt: null, expiresAt: new Date('2026-01-01T00:00:01Z') }, true],
    [{ revokedAt: null, expiresAt: now }, false],
  ])('returns %j → %s', (key, expected) => {
    expect(isKeyUsable(key, now)).toBe(expected);
  });
});

describe('keyExpiryIssues', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('accepts no expiry and a future expiry', () => {
    expect(keyExpiryIssues(null, now)).toEqual([]);
    expect(keyExpiryIssues(new Date(now.getTime() + 1), now)).toEqual([]);
  });

  it('refuses an expiry that is not in the future, on expires_at', () => {
    expect(keyExpiryIssues(now, now)).toEqual([
      { path: ['expires_at'], message: 'expires_at must be in the future' },
    ]);
  });
});
