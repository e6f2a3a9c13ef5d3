import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { cronBody, eventBody, makeApiKey, makeCron, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { idRoutes, routes } from '../../test/routes.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';

const UNAUTHORIZED = 'Unauthorized. Invalid or missing API key.';

let app: TestApp;
let team: TestTeam;
let revokedKey: string;
let expiredKey: string;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
  const em = app.orm.em.fork();
  revokedKey = (await makeApiKey(em, team.teamId, { revokedAt: new Date(Date.now() - 1000) })).key;
  expiredKey = (await makeApiKey(em, team.teamId, { expiresAt: new Date(Date.now() - 1000) })).key;
});
afterAll(() => app.close());

it('walks all eighteen routes of the contract', () => {
  expect(routes.map((r) => r.name).sort()).toEqual([
    'crons.create',
    'crons.delete',
    'crons.get',
    'crons.list',
    'crons.patch',
    'crons.trigger',
    'crons.update',
    'destinations.get',
    'destinations.list',
    'destinations.patch',
    'events.create',
    'events.createMany',
    'events.delete',
    'events.get',
    'events.list',
    'events.replay',
    'events.replayMany',
    'events.update',
  ]);
});

describe.each(routes)('$name', (r) => {
  const call = (authorization: string | undefined, body = r.validBody(), id?: string) =>
    app.request(r.route.method, r.path(id), {
      body,
      headers: authorization === undefined ? {} : { authorization },
    });

  it('passes authentication with a valid key', async () => {
    const response = await call(`Bearer ${team.key}`);
    expect(response.status).not.toBe(401);
    expect(response.status).toBeLessThan(500);
  });

  it.each<[string, () => string | undefined]>([
    ['the Authorization header is missing', () => undefined],
    ['the header is empty', () => ''],
    ['the scheme is Basic', () => 'Basic x'],
    ['the scheme is Basic with a valid key', () => `Basic ${team.key}`],
    ['the header is "Bearer" alone', () => 'Bearer'],
    ['the header is "Bearer " with no token', () => 'Bearer '],
    ['the token is not shaped like a key', () => 'Bearer not-a-key'],
    ['the key is unknown', () => `Bearer whs_${'A'.repeat(40)}`],
    ['the key is followed by another token', () => `Bearer ${team.key} extra`],
    ['the key is revoked', () => `Bearer ${revokedKey}`],
    ['the key is expired', () => `Bearer ${expiredKey}`],
  ])('returns 401 UNAUTHORIZED when %s', async (_, authorization) => {
    const error = expectError(await call(authorization()), 401, 'UNAUTHORIZED');
    expect(error.message).toBe(UNAUTHORIZED);
  });

  it('authenticates before validating the request', async () => {
    const path = r.hasId ? r.path('not-a-uuid') : `${r.path()}?limit=0&unknown=1`;
    const response = await app.request(r.route.method, path, {
      ...(r.hasBody ? { body: { unknown_field: true } } : {}),
    });
    expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe(UNAUTHORIZED);
  });

  it('challenges for a bearer token on 401', async () => {
    const response = await call(undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe.each(routes.filter((r) => r.hasBody))('$name with a body', (r) => {
  it('authenticates before parsing a malformed body', async () => {
    const response = await app.request(r.route.method, r.path(), {
      key: revokedKey,
      body: '{"webhook_url":',
    });
    expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe(UNAUTHORIZED);
  });

  it('authenticates before reading a body of the wrong content type', async () => {
    const response = await app.request(r.route.method, r.path(), {
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe(UNAUTHORIZED);
  });
});

describe.each(idRoutes)("$name on another team's resource", (r) => {
  it('returns 404 NOT_FOUND and leaves the resource untouched', async () => {
    const owner = await app.createTeam('owner');
    const intruder = await app.createTeam('intruder');
    const id = await r.makeResource(app.orm.em.fork(), owner.teamId);
    // Every route with an id shares its path with the GET of the same resource.
    const before = await app.request('GET', r.resourcePath(id), { key: owner.key });
    expect(before.status).toBe(200);

    const response = await app.request(r.route.method, r.path(id), {
      key: intruder.key,
      body: r.validBody(),
    });
    const error = expectError(response, 404, 'NOT_FOUND');
    expect(error.message).toMatch(/not found/i);

    const after = await app.request('GET', r.resourcePath(id), { key: owner.key });
    expect(after.body).toEqual(before.body);
  });
});

describe('lists', () => {
  it("never show another team's crons", async () => {
    const mine = await app.createTeam('mine');
    const theirs = await app.createTeam('theirs');
    await makeCron(app.orm.em.fork(), theirs.teamId);
    await app.request('POST', '/api/v1/crons', { key: theirs.key, body: cronBody() });
    const own = [
      await makeCron(app.orm.em.fork(), mine.teamId),
      await makeCron(app.orm.em.fork(), mine.teamId, { isActive: false }),
    ];

    for (const query of ['', '?is_active=true', '?is_active=false']) {
      const page = expectBody(
        await app.request('GET', `/api/v1/crons${query}`, { key: mine.key }),
        200,
        bodies.cronPage,
      );
      expect(page.data.every((cron) => cron.team_id === mine.teamId)).toBe(true);
      expect(page.pagination.total).toBe(page.data.length);
    }
    const all = await app.request('GET', '/api/v1/crons', { key: mine.key });
    expect(all.body.data.map((c: { id: string }) => c.id).sort()).toEqual(own.map((c) => c.id).sort());
  });

  it("never show another team's events, whatever the filter", async () => {
    const mine = await app.createTeam('mine');
    const theirs = await app.createTeam('theirs');
    const theirCron = await makeCron(app.orm.em.fork(), theirs.teamId);
    await makeEvents(app.orm.em.fork(), theirs.teamId, 3, (i) => ({
      cronId: i === 0 ? theirCron.id : null,
      status: i === 2 ? 'success' : 'pending',
    }));
    await app.request('POST', '/api/v1/events', { key: theirs.key, body: eventBody() });
    const own = await makeEvents(app.orm.em.fork(), mine.teamId, 2, (i) => ({
      status: i === 0 ? 'pending' : 'success',
    }));

    for (const query of ['', '?status=pending', '?status=success']) {
      const page = expectBody(
        await app.request('GET', `/api/v1/events${query}`, { key: mine.key }),
        200,
        bodies.eventPage,
      );
      expect(page.data.every((event) => event.team_id === mine.teamId)).toBe(true);
      expect(page.pagination.total).toBe(page.data.length);
    }
    const all = await app.request('GET', '/api/v1/events', { key: mine.key });
    expect(all.body.data.map((e: { id: string }) => e.id).sort()).toEqual(own.map((e) => e.id).sort());

    const byTheirCron = expectBody(
      await app.request('GET', `/api/v1/events?cron_id=${theirCron.id}`, { key: mine.key }),
      200,
      bodies.eventPage,
    );
    expect(byTheirCron).toEqual({ data: [], pagination: { page: 0, limit: 100, total: 0 } });
  });
});

describe('with a dashboard session', () => {
  let user: TestUser;
  let expired: TestUser;
  let signedOut: TestUser;
  let foreignTeam: string;
  const sessionHeaders = (u: TestUser, overrides: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = {
      cookie: u.cookie,
      'x-csrf-token': u.csrf,
      'x-team-id': u.teamId,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => !!entry[1]));
  };

  beforeAll(async () => {
    [user, expired, signedOut] = [await signUp(app), await signUp(app), await signUp(app)];
    await app.sql(`update sessions set expires_at = now() - interval '1 second' where user_id = $1`, [
      expired.userId,
    ]);
    await app.request('POST', '/api/dashboard/session/sign-out', as(signedOut));
    foreignTeam = (await app.createTeam('foreign')).teamId;
  });

  describe.each(routes)('$name', (r) => {
    const call = (headers: Record<string, string>) =>
      app.request(r.route.method, r.path(), { body: r.validBody(), headers });
    const changesState = r.route.method !== 'GET';

    it('passes authentication with the session, its CSRF token and one of its teams', async () => {
      const response = await call(sessionHeaders(user));
      expect(response.status).not.toBe(401);
      expect(response.status).toBeLessThan(500);
    });

    it.each<[string, () => Record<string, string>]>([
      ['the session cookie is missing', () => sessionHeaders(user, { cookie: undefined })],
      [
        'the session cookie is unknown',
        () => sessionHeaders(user, { cookie: `whs_session=${'A'.repeat(43)}` }),
      ],
      ['the session expired', () => sessionHeaders(expired)],
      ['the session was signed out', () => sessionHeaders(signedOut)],
      ['x-team-id is missing', () => sessionHeaders(user, { 'x-team-id': undefined })],
      ['x-team-id is not a UUID', () => sessionHeaders(user, { 'x-team-id': 'acme' })],
      ['x-team-id names a team the user is not in', () => sessionHeaders(user, { 'x-team-id': foreignTeam })],
      [
        'an Authorization header with a bad key comes with the session',
        () => sessionHeaders(user, { authorization: 'Bearer nope' }),
      ],
    ])('returns 401 UNAUTHORIZED when %s', async (_, headers) => {
      const error = expectError(await call(headers()), 401, 'UNAUTHORIZED');
      expect(error.message).toBe(UNAUTHORIZED);
    });

    if (changesState) {
      it.each<[string, string | undefined]>([
        ['missing', undefined],
        ['wrong', 'x'.repeat(43)],
      ])('returns 401 UNAUTHORIZED when the CSRF token is %s', async (_, csrf) => {
        const error = expectError(
          await call(sessionHeaders(user, { 'x-csrf-token': csrf })),
          401,
          'UNAUTHORIZED',
        );
        expect(error.message).toBe(UNAUTHORIZED);
      });
    } else {
      it('needs no CSRF token to read', async () => {
        const response = await call(sessionHeaders(user, { 'x-csrf-token': undefined }));
        expect(response.status).not.toBe(401);
      });
    }
  });

  describe.each(idRoutes)("$name on another team's resource", (r) => {
    it('returns 404 NOT_FOUND and leaves the resource untouched', async () => {
      const owner = await app.createTeam('owner');
      const id = await r.makeResource(app.orm.em.fork(), owner.teamId);
      const before = await app.request('GET', r.resourcePath(id), { key: owner.key });

      const response = await app.request(r.route.method, r.path(id), {
        body: r.validBody(),
        headers: sessionHeaders(user),
      });
      expectError(response, 404, 'NOT_FOUND');
      expect((await app.request('GET', r.resourcePath(id), { key: owner.key })).body).toEqual(before.body);
    });
  });

  it("never lists another team's crons or events", async () => {
    const intruder = await signUp(app);
    await makeCron(app.orm.em.fork(), user.teamId);
    await makeEvents(app.orm.em.fork(), user.teamId, 2);
    for (const path of ['/api/v1/crons', '/api/v1/events']) {
      const response = await app.request('GET', path, { headers: sessionHeaders(intruder) });
      expect(response.body).toEqual({ data: [], pagination: { page: 0, limit: 100, total: 0 } });
    }
  });
});
