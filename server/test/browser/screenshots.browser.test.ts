import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from '@webhook-scheduler/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../guide-samples.js';
import { type TestApp, startTestApp } from '../harness.js';
import { type Receiver, startReceiver } from '../receiver.js';
import { hasChromium, launchBrowser } from './chromium.js';

// `UPDATE_SCREENSHOTS=1 npx vitest run test/browser/screenshots` rewrites docs/screenshots from a
// seeded team; a normal test run skips it, so it never dirties the working tree.
const OUT = path.join(REPO_ROOT, 'docs', 'screenshots');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let app: TestApp;
let receiver: Receiver;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;

async function shoot(name: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true, animations: 'disabled' });
}

describe.skipIf(!hasChromium || !process.env.UPDATE_SCREENSHOTS)('docs/screenshots', () => {
  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    app = await startTestApp({ scheduler: {} });
    receiver = await startReceiver();
    receiver.reply('/orders', {
      status: 200,
      body: '{"received":true}',
      headers: { 'content-type': 'application/json' },
    });
    receiver.reply('/flaky', { status: 503, body: 'upstream unavailable' });
    browser = await launchBrowser({ viewport: DESKTOP, timezoneId: 'Europe/Paris', deviceScaleFactor: 1 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  it('shows the main pages at desktop and phone widths', async () => {
    await page.goto(`${app.url}/sign-up`);
    await shoot('sign-up', DESKTOP);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Send your first webhook' }).waitFor();
    await shoot('get-started', DESKTOP);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-key').locator('pre').first().innerText()).trim();
    await page
      .getByTestId('new-key')
      .getByRole('heading', { name: /Try it/ })
      .waitFor();
    await shoot('api-key-created', DESKTOP);

    const teamId = new URL(page.url()).pathname.split('/')[2] ?? '';
    const client = createClient({ baseUrl: app.url, apiKey: key });
    const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
    const target = receiver.url.replace('127.0.0.1', 'localhost');
    await client.crons.create({
      webhook_url: `${target}/reports`,
      cron_expression: '0 9 * * MON-FRI',
      timezone: 'Europe/Paris',
    });
    const nightly = await client.crons.create({
      webhook_url: `${target}/billing/close`,
      cron_expression: '0 18 LW * *',
      timezone: 'America/New_York',
      retry_config: { maxRetries: 3, backoffMs: 1000 },
    });
    await client.crons.create({
      webhook_url: `${target}/ping`,
      cron_expression: '*/15 * * * *',
      is_active: false,
    });
    await client.crons.create({ webhook_url: `${target}/heartbeat`, cron_expression: '*/5 * * * * *' });
    await client.events.create({
      webhook_url: `${target}/orders`,
      scheduled_at: soon(800),
      payload: { order: 1042, total: 99.5 },
    });
    const failing = await client.events.create({
      webhook_url: `${target}/flaky`,
      scheduled_at: soon(900),
      method: 'PUT',
      headers: { 'x-source': 'billing' },
      payload: { invoice: 'INV-2030-001' },
      retry_config: { maxRetries: 2, backoffMs: 300, backoffType: 'linear' },
    });
    await client.events.create({
      webhook_url: `${target}/reminders`,
      scheduled_at: soon(3_600_000),
      payload: { user: 42 },
    });
    await expect
      .poll(async () => (await client.events.get(failing.id)).status, { timeout: 15_000 })
      .toBe('failed');

    await page.goto(`${app.url}/t/${teamId}/events`);
    await page.locator('[data-testid=event-row][data-status=failed]').first().waitFor();
    await page.getByTestId('upcoming-row').first().waitFor();
    await shoot('events', DESKTOP);
    await shoot('events-phone', PHONE);

    await page.goto(`${app.url}/t/${teamId}/overview`);
    await page.getByTestId('overview-tiles').waitFor();
    await page.getByTestId('outcomes-chart').locator('canvas').waitFor();
    await page.getByTestId('upcoming-chart').locator('canvas').waitFor();
    await shoot('overview', DESKTOP);
    await shoot('overview-phone', PHONE);
    await page.setViewportSize(DESKTOP);

    await page.goto(`${app.url}/t/${teamId}/events/${failing.id}`);
    await page.getByTestId('attempts').locator('li').nth(2).waitFor();
    await shoot('event', DESKTOP);
    await shoot('event-phone', PHONE);

    await page.goto(`${app.url}/t/${teamId}/crons`);
    await page.getByTestId('cron-row').nth(2).waitFor();
    await shoot('crons', DESKTOP);
    await shoot('crons-phone', PHONE);

    await page.goto(`${app.url}/t/${teamId}/crons/${nightly.id}`);
    await page.getByTestId('preview').waitFor();
    await shoot('cron', DESKTOP);
    await shoot('cron-phone', PHONE);

    await page.goto(`${app.url}/t/${teamId}/crons/new`);
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByLabel('Webhook URL').fill('not a url');
    await page.getByRole('button', { name: 'Create cron' }).click();
    await page.locator('.field-error[id]').nth(2).waitFor();
    await shoot('cron-errors', DESKTOP);

    await page.goto(`${app.url}/t/${teamId}/events/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'Event not found' }).waitFor();
    await shoot('event-missing', DESKTOP);

    await page.goto(`${app.url}/t/${teamId}/settings`);
    await page.getByTestId('key-row').waitFor();
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    await shoot('settings', DESKTOP);
    await shoot('settings-phone', PHONE);
  }, 90_000);
});
