import { describe, expect, it } from 'vitest';
import { canonicalJson, isRemembered, lockIdOf, requestFingerprint } from './idempotency.rules.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });

  it('writes scalars as JSON', () => {
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('requestFingerprint', () => {
  it('is the same for bodies that differ only in key order', () => {
    expect(requestFingerprint('POST', '/api/v1/events', { a: 1, b: 2 })).toBe(
      requestFingerprint('POST', '/api/v1/events', { b: 2, a: 1 }),
    );
  });

  it.each([
    ['another value', 'POST', '/api/v1/events', { a: 2, b: 2 }],
    ['another route', 'POST', '/api/v1/crons', { a: 1, b: 2 }],
    ['another method', 'PUT', '/api/v1/events', { a: 1, b: 2 }],
  ])('differs for %s', (_, method, path, body) => {
    expect(requestFingerprint(method, path, body)).not.toBe(
      requestFingerprint('POST', '/api/v1/events', { a: 1, b: 2 }),
    );
  });
});

describe('lockIdOf', () => {
  it('is a signed 64-bit integer, stable, and depends on the team and the key', () => {
    const id = lockIdOf('team-a', 'key');
    expect(BigInt(id)).toBeGreaterThanOrEqual(-(2n ** 63n));
    expect(BigInt(id)).toBeLessThan(2n ** 63n);
    expect(lockIdOf('team-a', 'key')).toBe(id);
    expect(lockIdOf('team-b', 'key')).not.toBe(id);
    expect(lockIdOf('team-a', 'key2')).not.toBe(id);
  });
});

describe('isRemembered', () => {
  it.each([
    [201, true],
    [400, true],
    [422, true],
    [500, false],
    [503, false],
  ])('status %i → %s', (status, expected) => {
    expect(isRemembered(status)).toBe(expected);
  });
});
