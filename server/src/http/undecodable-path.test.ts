import { describe, expect, it } from 'vitest';
import { isUndecodablePath, undecodablePathError } from './undecodable-path.js';

describe('undecodablePathError', () => {
  it.each([
    ['GET', '/api/v1/events/%ZZ', ['id']],
    ['HEAD', '/api/v1/crons/%FF', ['id']],
    ['DELETE', '/API/V1/CRONS/%/', ['id']],
    ['DELETE', '/api/dashboard/teams/%C0%AF/keys/%ED%A0%80', ['teamId', 'keyId']],
  ])('blames the parameters of %s %s', (method, path, names) => {
    const error = undecodablePathError(method, path);
    expect(error.status).toBe(400);
    expect(error.details).toEqual(names.map((name) => ({ path: [name], message: expect.any(String) })));
  });

  it.each([
    ['PATCH', '/api/v1/events/%ZZ'],
    ['GET', '/api/v1/events/%ZZ/extra'],
    ['GET', '/api/v1/events//'],
    ['GET', '/elsewhere/%ZZ'],
  ])('answers 404 for %s %s, which no route has', (method, path) => {
    expect(undecodablePathError(method, path).status).toBe(404);
  });
});

describe('isUndecodablePath', () => {
  it('recognises the URIError Express raises, and nothing else', () => {
    expect(isUndecodablePath(Object.assign(new URIError('Failed to decode param'), { status: 400 }))).toBe(
      true,
    );
    expect(isUndecodablePath(new URIError('URI malformed'))).toBe(false);
    expect(isUndecodablePath(new Error('x'))).toBe(false);
  });
});
