import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inFuture, makeCron } from '../factories.js';
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

/** What the page sends: a method and maybe a JSON body. */
interface PageCall {
  method?: string;
  body?: unknown;
  /** Sent besides the key and the content type (the SDK adds an Idempotency-Key to creates). */
  headers?: Record<string, string>;
}

/** Calls the API with fetch from inside the page, with the headers the SDK sends. */
function callFromPage(page: Page, url: string, key: string, call: PageCall = {}): Promise<PageResult> {
  const { body, headers = {} } = call;
  const method = call.method ?? (body === undefined ? 'GET' : 'POST');
  return page.evaluate(
    async ({ url, key, method, body, headers }) => {
      try {
        const response = await fetch(url, {
          method,
          headers: { ...headers, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
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
    { url, key, method, body, headers },
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
      body: { webhook_url: 'https://example.com/from-a-page', scheduled_at: inFuture() },
      headers: { 'idempotency-key': 'cors-test' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { data: { webhook_url: 'https://example.com/from-a-page' } },
    });
    expect(created.requestId).toMatch(/^[\w.:-]+$/);
    const listed = await callFromPage(page, `${app.url}/api/v1/events`, team.key);
    expect(listed).toMatchObject({ status: 200, body: { pagination: { total: 1 } } });
  });

  // PATCH is not a CORS-safelisted method: the browser sends it only after a preflight allows it.
  it('lets an allowed origin PATCH a cron', async () => {
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    await page.goto(allowedPage.origin);
    const patched = await callFromPage(page, `${app.url}/api/v1/crons/${cron.id}`, team.key, {
      method: 'PATCH',
      body: { is_active: false },
    });
    expect(patched).toMatchObject({ status: 200, body: { data: { id: cron.id, is_active: false } } });
    const [row] = await app.sql<{ is_active: boolean }>('select is_active from crons where id = $1', [
      cron.id,
    ]);
    expect(row?.is_active).toBe(false);
  });

  it('blocks a PATCH from a page of an origin not in CORS_ORIGINS before it reaches the cron', async () => {
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    await page.goto(otherPage.origin);
    const blocked = await callFromPage(page, `${app.url}/api/v1/crons/${cron.id}`, team.key, {
      method: 'PATCH',
      body: { is_active: false },
    });
    expect(blocked.failed).toMatch(/TypeError: Failed to fetch/);
    const [row] = await app.sql<{ is_active: boolean }>('select is_active from crons where id = $1', [
      cron.id,
    ]);
    expect(row?.is_active).toBe(true);
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
