import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { builtDashboardDir } from './spa.router.js';

let app: TestApp;
beforeAll(async () => {
  if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the dashboard’s files', () => {
  it('serve index.html at / with a CSP that allows only the page’s own scripts, never cached', async () => {
    const response = await app.request('GET', '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.text).toContain('<div id="root"></div>');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    // Every script is a file: an inline one would be blocked by the CSP above.
    const scripts = [...response.text.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/\bsrc="\/assets\//);
  });

  it('serve index.html for the dashboard’s own addresses, so a reload keeps the page', async () => {
    for (const path of [
      '/sign-in',
      '/t/9b0e7c52-61d4-4f0e-8a7b-2d6c4e8f1a30/events?status=failed',
      '/teams/new',
    ]) {
      const response = await app.request('GET', path);
      expect(response.status, path).toBe(200);
      expect(response.text).toContain('<div id="root"></div>');
    }
  });

  it('serve the hashed assets with a year of immutable caching', async () => {
    const index = await app.request('GET', '/');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)?.[1] ?? '';
    const response = await app.request('GET', asset);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('leave unknown /api addresses to the API’s JSON errors', async () => {
    expectError(await app.request('GET', '/api/nope'), 404, 'NOT_FOUND');
    expectError(await app.request('GET', '/api/v1/nope'), 401, 'UNAUTHORIZED');
    expectError(await app.request('GET', '/api/dashboard/nope'), 401, 'UNAUTHORIZED');
    expectError(await app.request('GET', '/assets/missing.js'), 404, 'NOT_FOUND');
    expectError(await app.request('POST', '/somewhere', { body: {} }), 404, 'NOT_FOUND');
  });

  it('leave the API reference at /docs', async () => {
    const response = await app.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.text).toContain('Webhook Scheduler API reference');
  });
});
