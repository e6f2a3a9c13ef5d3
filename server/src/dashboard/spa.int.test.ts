import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

/** A raw HTTP exchange: unlike fetch, node:http neither adds Accept-Encoding nor decompresses. */
function rawRequest(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${app.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

async function assetPaths(): Promise<{ script: string; style: string }> {
  const index = await app.request('GET', '/');
  return {
    script: /src="(\/assets\/[^"]+\.js)"/.exec(index.text)?.[1] ?? '',
    style: /href="(\/assets\/[^"]+\.css)"/.exec(index.text)?.[1] ?? '',
  };
}

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

  it('send the script brotli-compressed to a browser that accepts brotli', async () => {
    const { script } = await assetPaths();
    const plain = await rawRequest(script, { 'accept-encoding': 'identity' });
    const response = await rawRequest(script, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^application\/javascript; charset=utf-8$/i);
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(brotliDecompressSync(response.body).equals(plain.body)).toBe(true);
    // The script is mostly text: brotli takes it well under a third of its size.
    expect(response.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('send gzip to a client that accepts gzip but not brotli', async () => {
    const { script, style } = await assetPaths();
    for (const path of [script, style]) {
      const plain = await rawRequest(path, {});
      const response = await rawRequest(path, { 'accept-encoding': 'gzip, br;q=0' });
      expect(response.headers['content-encoding'], path).toBe('gzip');
      expect(response.headers['content-type'], path).toMatch(
        path.endsWith('.css') ? /^text\/css/ : /javascript/,
      );
      expect(gunzipSync(response.body).equals(plain.body), path).toBe(true);
    }
  });

  it('send the file as it is to a client that names no encoding, saying the answer varies by encoding', async () => {
    const { script } = await assetPaths();
    const response = await rawRequest(script, {});
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^application\/javascript; charset=utf-8$/i);
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.body.toString('utf8')).toMatch(/^(?:\/\*[\s\S]*?\*\/\s*)?[\w(!]/);
  });

  it('answer a HEAD for a compressed file with the compressed file’s headers and no body', async () => {
    const { script } = await assetPaths();
    const get = await rawRequest(script, { 'accept-encoding': 'br' });
    const head = await rawRequest(script, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.body.length).toBe(0);
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
