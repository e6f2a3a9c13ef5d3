import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { routes } from '../../test/routes.js';

// The headers themselves; test/browser/cors.browser.test.ts shows Chromium acting on them.

const ALLOWED = 'https://app.example.com';
let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp({ corsOrigins: [ALLOWED, 'http://127.0.0.1:5173'] });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
});

const preflight = (origin: string, path = '/api/v1/events', method = 'POST') =>
  app.request('OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

describe('CORS on /api/v1', () => {
  it('answers a preflight from an allowed origin with 204, its methods and headers, before authentication', async () => {
    const response = await preflight(ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase().split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });

  // Walks the contract: a route added with a method the preflight leaves out fails here.
  it.each(routes.map((route) => [route.name, route] as const))(
    'allows the method of %s in a preflight to its path',
    async (_, route) => {
      const response = await preflight(ALLOWED, route.path(), route.route.method);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')?.split(', ')).toContain(route.route.method);
    },
  );

  it('answers a preflight from another origin with 204 and no CORS headers', async () => {
    const response = await preflight('https://evil.example.com');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('exposes the rate-limit headers, Retry-After and X-Request-Id on answers and errors alike', async () => {
    for (const key of [team.key, 'whs_wrong']) {
      const response = await app.request('GET', '/api/v1/crons', { key, headers: { origin: ALLOWED } });
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
      ]);
    }
  });

  it('lets a page fetch the OpenAPI document', async () => {
    const response = await app.request('GET', '/api/v1/openapi.json', { headers: { origin: ALLOWED } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('adds nothing for a request without an Origin or outside /api/v1', async () => {
    const plain = await app.request('GET', '/api/v1/crons', { key: team.key });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const health = await app.request('GET', '/healthz', { headers: { origin: ALLOWED } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is off unless CORS_ORIGINS is set: a preflight is refused like any unauthenticated call', async () => {
    const closed = await startTestApp({ database: app.db });
    try {
      const response = await closed.request('OPTIONS', '/api/v1/events', {
        headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
    }
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin, with * and without credentials', async () => {
    const open = await startTestApp({ database: app.db, corsOrigins: ['*'] });
    try {
      const response = await open.request('GET', '/api/v1/crons', {
        key: team.key,
        headers: { origin: 'https://anywhere.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await open.close();
    }
  });
});
