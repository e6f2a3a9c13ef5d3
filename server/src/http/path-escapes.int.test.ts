import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { idRoutes } from '../../test/routes.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';

let app: TestApp;
let team: TestTeam;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
  user = await signUp(app);
});
afterAll(() => app.close());

/** Path segments `decodeURIComponent` refuses: not hex, not UTF-8, overlong, a surrogate, cut short. */
const UNDECODABLE: [string, string][] = [
  ['is not hex', '%ZZ'],
  ['is a lone continuation byte', '%FF'],
  ['is an overlong slash', '%C0%AF'],
  ['is an encoded surrogate', '%ED%A0%80'],
  ['is a bare %', '%'],
  ['is cut short', '%E2%82'],
  ['follows a valid prefix', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1%'],
];

describe.each(idRoutes)('$name', (r) => {
  const pathWith = (segment: string) => r.route.path.replace(':id', segment);

  it.each(UNDECODABLE)('returns 400 VALIDATION_ERROR on ["id"] when the id %s', async (_, segment) => {
    const response = await app.request(r.route.method, pathWith(segment), {
      key: team.key,
      body: r.validBody(),
    });
    expect(expectValidationError(response)).toEqual([{ path: ['id'], message: expect.any(String) }]);
  });

  it.each(UNDECODABLE)('returns 401 without a key when the id %s', async (_, segment) => {
    expectError(
      await app.request(r.route.method, pathWith(segment), { body: r.validBody() }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('dashboard routes with ids', () => {
  it.each([
    ['GET', '/api/dashboard/teams/%ZZ/keys', ['teamId']],
    ['GET', '/api/dashboard/teams/%FF/members', ['teamId']],
    ['DELETE', `/api/dashboard/teams/${randomUUID()}/keys/%C0%AF`, ['keyId']],
    ['DELETE', `/api/dashboard/teams/${randomUUID()}/members/%`, ['userId']],
    ['GET', `/api/dashboard/teams/${randomUUID()}/events/%ED%A0%80/attempts`, ['eventId']],
  ])('returns 400 VALIDATION_ERROR when %s %s has an undecodable id', async (method, path, blamed) => {
    const issues = expectValidationError(await app.request(method, path, as(user)));
    expect(issues).toEqual([{ path: blamed, message: expect.any(String) }]);
  });

  it('returns 401 without a session', async () => {
    expectError(await app.request('GET', '/api/dashboard/teams/%ZZ/keys'), 401, 'UNAUTHORIZED');
  });
});

describe('other paths with undecodable escapes', () => {
  it.each([
    ['PATCH', '/api/v1/events/%ZZ'],
    ['POST', '/api/v1/crons/%FF'],
    ['GET', '/api/v1/nope/%ZZ'],
    ['GET', '/api/v1/events/%ZZ/attempts'],
    ['GET', '/api/v1/%'],
    ['GET', '/api/%ZZ'],
  ])('returns 404 NOT_FOUND for %s %s with a valid key', async (method, path) => {
    expectError(await app.request(method, path, { key: team.key }), 404, 'NOT_FOUND');
  });

  it.each([
    ['PATCH', '/api/v1/events/%ZZ'],
    ['GET', '/api/v1/nope/%ZZ'],
  ])('returns 401 for %s %s without a key', async (method, path) => {
    expectError(await app.request(method, path), 401, 'UNAUTHORIZED');
  });

  it.each(['/%ZZ', '/events/%FF', '/docs/%ZZ', '/docs/assets/%C0%AF', '/assets/%', '/healthz%ZZ'])(
    'answers GET %s without a server error',
    async (path) => {
      const response = await app.request('GET', path);
      expect(response.status, response.text.slice(0, 300)).toBeLessThan(500);
    },
  );
});
