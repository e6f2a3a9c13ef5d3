import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { cronBody, eventBody } from '../../test/factories.js';
import { type ApiResponse, type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { routes } from '../../test/routes.js';

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp({ bodyLimitBytes: 1024 });
  team = await app.createTeam();
});
afterAll(() => app.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api'],
    ['POST', '/nope'],
    ['GET', '/api/v2/crons'],
    ['POST', '/healthz'],
    ['DELETE', '/docs'],
  ])('returns 404 NOT_FOUND for %s %s', async (method, path) => {
    expectError(await app.request(method, path), 404, 'NOT_FOUND');
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v1/crons/00000000-0000-0000-0000-000000000000/events'],
    ['PATCH', '/api/v1/crons'],
    ['DELETE', '/api/v1/crons'],
    ['PUT', '/api/v1/events'],
    ['POST', '/api/v1/events/00000000-0000-0000-0000-000000000000'],
    ['PATCH', '/api/v1/events/00000000-0000-0000-0000-000000000000'],
    ['OPTIONS', '/api/v1/crons'],
  ])('returns 404 NOT_FOUND for %s %s with a valid key', async (method, path) => {
    expectError(await app.request(method, path, { key: team.key }), 404, 'NOT_FOUND');
  });

  it('returns 401 under /api/v1 without a key, so routes cannot be probed anonymously', async () => {
    expectError(await app.request('PATCH', '/api/v1/crons'), 401, 'UNAUTHORIZED');
  });
});

describe('x-request-id', () => {
  const requests: [string, () => Promise<ApiResponse>][] = [
    ['200', () => app.request('GET', '/api/v1/crons', { key: team.key })],
    ['201', () => app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() })],
    ['400', () => app.request('POST', '/api/v1/crons', { key: team.key, body: '{' })],
    ['401', () => app.request('GET', '/api/v1/crons')],
    ['404', () => app.request('GET', '/api/nope')],
    [
      '413',
      () =>
        app.request('POST', '/api/v1/crons', {
          key: team.key,
          body: cronBody({ payload: 'x'.repeat(2048) }),
        }),
    ],
    ['500', () => app.request('GET', '/api/v1/crons?page=1', { key: team.key })],
    ['/healthz', () => app.request('GET', '/healthz')],
    ['/docs', () => app.request('GET', '/docs')],
  ];

  it.each(requests)('is set on a %s response', async (_, send) => {
    expect((await send()).headers.get('x-request-id')).toMatch(UUID);
  });

  it('gives every request its own id', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => app.request('GET', '/healthz')));
    expect(new Set(ids.map((r) => r.headers.get('x-request-id'))).size).toBe(3);
  });

  it.each(['abc-123', 'trace:01HZX.y_z', 'a'.repeat(128)])('echoes the sane incoming id %j', async (id) => {
    const response = await app.request('GET', '/api/v1/crons', {
      key: team.key,
      headers: { 'x-request-id': id },
    });
    expect(response.headers.get('x-request-id')).toBe(id);
  });

  it.each(['a'.repeat(129), 'has space', 'semi;colon', '<script>'])(
    'replaces the unusable incoming id %j',
    async (id) => {
      const response = await app.request('GET', '/healthz', { headers: { 'x-request-id': id } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    },
  );
});

describe('health', () => {
  it('answers /healthz with 200', async () => {
    const response = await app.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 while the database answers', async () => {
    const response = await app.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
  });
});

describe('documentation', () => {
  it('serves the OpenAPI document without a key, with every route of the contract', async () => {
    const response = await app.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const document = response.body as { openapi: string; info: { version: string }; paths: object };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    const paths = document.paths as Record<string, Record<string, unknown>>;
    for (const r of routes) {
      const path = r.route.path.replace(/:(id|origin)\b/, '{$1}');
      expect(paths[path]?.[r.route.method.toLowerCase()], `${r.route.method} ${path}`).toBeDefined();
    }
  });

  it('serves the API reference page as HTML', async () => {
    const response = await app.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.text).toContain('<div id="reference">');
  });

  it('serves the scripts the reference page loads', async () => {
    const page = await app.request('GET', '/docs');
    const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const asset of scripts) {
      expect((await app.request('GET', asset)).status, asset).toBe(200);
    }
    expect((await app.request('GET', '/docs/init.js')).text).toContain('/api/v1/openapi.json');
  });
});

describe('database failures', () => {
  let broken: TestApp;
  let brokenTeam: TestTeam;
  beforeAll(async () => {
    broken = await startTestApp();
    brokenTeam = await broken.createTeam();
  });
  afterAll(() => broken.close());

  async function sql(statement: string): Promise<void> {
    const client = new pg.Client(broken.db.connection);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  function expectOpaque500(response: ApiResponse): void {
    const error = expectError(response, 500, 'INTERNAL_SERVER_ERROR');
    expect(error).toEqual({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
    expect(response.text).not.toMatch(/relation|select|insert|crons|events|stack|at \w+ \(/i);
  }

  it('answers a failing query with a fixed 500 that leaks no SQL', async () => {
    // A cron to list: an empty page is answered from the counts alone, without reading `crons`.
    expectBody(
      await broken.request('POST', '/api/v1/crons', { key: brokenTeam.key, body: cronBody() }),
      201,
      bodies.cron,
    );
    await sql('alter table crons rename to crons_moved');
    try {
      expectOpaque500(await broken.request('GET', '/api/v1/crons', { key: brokenTeam.key }));
      expectOpaque500(
        await broken.request('POST', '/api/v1/crons', { key: brokenTeam.key, body: cronBody() }),
      );
      // The rest of the API keeps working.
      expectBody(
        await broken.request('GET', '/api/v1/events', { key: brokenTeam.key }),
        200,
        bodies.eventPage,
      );
    } finally {
      await sql('alter table crons_moved rename to crons');
    }
  });

  it('answers 500, not 401, and /readyz 503 when the database is gone', async () => {
    // A key this process has not seen yet, so authentication has to read the database.
    const unseen = await broken.createTeam('unseen');
    await sql('alter table api_keys rename to api_keys_moved');
    try {
      expectOpaque500(await broken.request('GET', '/api/v1/events', { key: unseen.key }));
    } finally {
      await sql('alter table api_keys_moved rename to api_keys');
    }
    await broken.db.drop();
    expectOpaque500(await broken.request('GET', '/api/v1/events', { key: brokenTeam.key }));
    const ready = await broken.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable' });
  });
});
