import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inFuture } from '../factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../harness.js';
import { hasChromium, launchBrowser } from './chromium.js';

// A page of another origin calling the API from Chromium, as the SDK does in a browser: the browser,
// not this test, decides whether the call and its headers reach the page.

/** A plain page on its own loopback port: another origin than the API's. */
async function startPageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>other origin</title><p>A page of another origin.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface PageResult {
  status?: number;
  body?: unknown;
  requestId?: string | null;
  failed?: string;
}

/** Calls the API with fetch from inside the page, with the headers the SDK sends. */
function callFromPage(page: Page, url: string, key: string, body?: unknown): Promise<PageResult> {
  return page.evaluate(
    async ({ url, key, body }) => {
      try {
        const response = await fetch(url, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': 'cors-test',
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return {
          status: response.status,
          body: await response.json(),
          requestId: response.headers.get('x-request-id'),
        };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, key, body },
  );
}

describe.skipIf(!hasChromium)('CORS from a page of another origin in Chromium', () => {
  let allowedPage: Awaited<ReturnType<typeof startPageServer>>;
  let otherPage: Awaited<ReturnType<typeof startPageServer>>;
  let app: TestApp;
  let closedApp: TestApp;
  let team: TestTeam;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    allowedPage = await startPageServer();
    otherPage = await startPageServer();
    app = await startTestApp({ corsOrigins: [allowedPage.origin] });
    closedApp = await startTestApp({ database: app.db });
    team = await app.createTeam();
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });
  afterAll(async () => {
    await browser?.close();
    await closedApp?.close();
    await app?.close();
    await allowedPage?.close();
    await otherPage?.close();
  });

  it('lets an allowed origin create and list events with its key, and read X-Request-Id', async () => {
    await page.goto(allowedPage.origin);
    const created = await callFromPage(page, `${app.url}/api/v1/events`, team.key, {
      webhook_url: 'https://example.com/from-a-page',
      scheduled_at: inFuture(),
    });
    expect(created).toMatchObject({
      status: 201,
      body: { data: { webhook_url: 'https://example.com/from-a-page' } },
    });
    expect(created.requestId).toMatch(/^[\w.:-]+$/);
    const listed = await callFromPage(page, `${app.url}/api/v1/events`, team.key);
    expect(listed).toMatchObject({ status: 200, body: { pagination: { total: 1 } } });
  });

  it('hands an allowed origin the API’s errors, not a network failure', async () => {
    await page.goto(allowedPage.origin);
    const refused = await callFromPage(page, `${app.url}/api/v1/crons`, 'whs_wrong');
    expect(refused).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
  });

  it('blocks a page of an origin not in CORS_ORIGINS', async () => {
    await page.goto(otherPage.origin);
    const blocked = await callFromPage(page, `${app.url}/api/v1/events`, team.key);
    expect(blocked.failed).toMatch(/TypeError: Failed to fetch/);
  });

  it('blocks every page when CORS_ORIGINS is not set', async () => {
    await page.goto(allowedPage.origin);
    const blocked = await callFromPage(page, `${closedApp.url}/api/v1/events`, team.key);
    expect(blocked.failed).toMatch(/TypeError: Failed to fetch/);
  });
});
