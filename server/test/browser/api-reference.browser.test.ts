import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../harness.js';
import { openApiDocument } from '../openapi-document.js';
import { hasChromium, launchBrowser } from './chromium.js';

// The API reference at /docs is Swagger UI rendering the OpenAPI 3.1 document in the browser.

describe.skipIf(!hasChromium)('the API reference in Chromium', () => {
  let app: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders every operation of the OpenAPI 3.1 document without an error', async () => {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${app.url}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const operations = await page.locator('.opblock-summary-path').allTextContents();
    expect(operations.map((text) => text.replace(/\u200b/g, ''))).toEqual(
      expect.arrayContaining([
        '/api/v1/events',
        '/api/v1/events/{id}',
        '/api/v1/crons',
        '/api/v1/crons/{id}',
      ]),
    );
    // Swagger UI lists the alert webhooks beside the routes.
    const documented = [openApiDocument.paths, openApiDocument.webhooks ?? {}].flatMap((items) =>
      Object.values(items).flatMap((item) => Object.keys(item)),
    );
    expect(operations).toHaveLength(documented.length);
    expect(await page.locator('.version-stamp').first().textContent()).toContain('OAS 3.1');
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
