import { randomUUID } from 'node:crypto';
import { type WebhookSchedulerClient, createClient } from '@webhook-scheduler/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtDashboardDir } from '../../src/dashboard/spa.router.js';
import { type TestApp, startTestApp } from '../harness.js';
import { type Receiver, startReceiver } from '../receiver.js';
import { hasChromium, launchBrowser } from './chromium.js';
import { expectAccessible, keyOf, signUpInPage, teamOfPage } from './dashboard-user.js';

// The events pages of one team with a delivery that failed and was retried twice.

let app: TestApp;
let receiver: Receiver;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let teamId: string;
let client: WebhookSchedulerClient;
let failing: { id: string };
let later: { id: string };

const rows = () => page.getByTestId('event-row');
const originsShown = () => rows().locator('td[data-label=Origin]').allInnerTexts();
const idsShown = () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));

describe.skipIf(!hasChromium)('the events pages in Chromium', () => {
  beforeAll(async () => {
    if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
    app = await startTestApp({ scheduler: {} });
    receiver = await startReceiver();
    receiver.reply('/flaky', { status: 503, body: 'upstream unavailable' });
    browser = await launchBrowser({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);

    await signUpInPage(page, app);
    teamId = teamOfPage(page);
    client = createClient({ baseUrl: app.url, apiKey: await keyOf(app, teamId) });
    failing = await client.events.create({
      webhook_url: `${receiver.url}/flaky`,
      scheduled_at: new Date(Date.now() + 800).toISOString(),
      retry_config: { maxRetries: 2, backoffMs: 100, backoffType: 'linear' },
    });
    // Scheduled an hour after the original and its retries: the list (latest scheduled first) puts
    // it first, the retries under their original.
    later = await client.events.create({
      webhook_url: `${receiver.url}/later`,
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      retry_config: { maxRetries: 1, backoffMs: 100 },
    });
    // The original and its two retries have run; `later` waits an hour.
    const settled = { timeout: 20_000, interval: 200 };
    await vi.waitFor(async () => expect((await client.events.list()).pagination.total).toBe(4), settled);
    await vi.waitFor(
      async () => expect((await client.events.get(failing.id)).status).toBe('failed'),
      settled,
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  it('lists each retry under its original, numbered, and without numbers under a status filter', async () => {
    const retries = (await client.events.list()).data.filter((event) => event.retry_of === failing.id);
    retries.sort((a, b) => a.scheduled_at.localeCompare(b.scheduled_at));
    expect(retries).toHaveLength(2);

    await page.goto(`${app.url}/t/${teamId}/events`);
    await expect.poll(idsShown).toEqual([later.id, failing.id, retries[0]?.id, retries[1]?.id]);
    expect(await originsShown()).toEqual(['one-time', 'one-time', 'retry 1', 'retry 2']);
    expect(await rows().evaluateAll((trs) => trs.map((tr) => tr.classList.contains('retry-row')))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    await expectAccessible(page, 'the events page');

    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'failed' }).click();
    await expect.poll(idsShown).toEqual([failing.id, retries[0]?.id, retries[1]?.id]);
    expect(await originsShown()).toEqual(['one-time', 'retry', 'retry']);
  });

  it('shows an event’s retry limit in words that agree with the count', async () => {
    await page.goto(`${app.url}/t/${teamId}/events/${later.id}`);
    await expect
      .poll(() => page.getByText(/^Up to \d/).innerText())
      .toBe('Up to 1 retry, exponential backoff from 100 ms');
    await page.goto(`${app.url}/t/${teamId}/events/${failing.id}`);
    await expect
      .poll(() => page.getByText(/^Up to \d/).innerText())
      .toBe('Up to 2 retries, linear backoff from 100 ms');
    await page.getByTestId('attempts').locator('li').nth(2).waitFor();
    await expectAccessible(page, 'an event');
  });

  it.each([
    ['an id no event has', randomUUID()],
    ['an id that is no UUID', 'not-an-id'],
  ])('shows a not-found page with a way back for %s', async (_, id) => {
    await page.goto(`${app.url}/t/${teamId}/events/${id}`);
    await page.getByRole('heading', { name: 'Event not found' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Event not found · Webhook Scheduler');
    await expectAccessible(page, 'a missing event');
    await page.getByRole('link', { name: 'Back to the events' }).click();
    await page.waitForURL(`**/t/${teamId}/events`);
  });

  it('gives each page a title of its own, and no page has accessibility violations', async () => {
    const titles: string[] = [];
    for (const path of ['events', `events/${failing.id}`, 'events/new', 'crons', 'crons/new', 'settings']) {
      await page.goto(`${app.url}/t/${teamId}/${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => page.title()).toMatch(/ · Webhook Scheduler$/);
      titles.push(await page.title());
      await expectAccessible(page, path);
    }
    const team = await page.getByLabel('Team').locator('option:checked').innerText();
    expect(titles).toEqual(
      ['Events', 'Failed event', 'Schedule an event', 'Crons', 'New cron', 'Settings'].map(
        (title) => `${title} · ${team} · Webhook Scheduler`,
      ),
    );
  });

  it('keeps the pages accessible on a phone, the logo link named by the product', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${app.url}/t/${teamId}/events`);
      await rows().first().waitFor();
      await expect.poll(() => page.getByRole('link', { name: 'Webhook Scheduler' }).isVisible()).toBe(true);
      await expectAccessible(page, 'the events page on a phone');
      for (const path of [`events/${failing.id}`, 'crons/new', 'settings']) {
        await page.goto(`${app.url}/t/${teamId}/${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await expectAccessible(page, `${path} on a phone`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('receives the dashboard’s script compressed', async () => {
    const script = page.waitForResponse((response) => /\/assets\/[^/]+\.js$/.test(response.url()));
    await page.goto(`${app.url}/t/${teamId}/crons`, { waitUntil: 'commit' });
    const response = await script;
    const headers = await response.allHeaders();
    expect(headers['content-encoding']).toBe('br');
    expect(headers.vary).toBe('Accept-Encoding');
  });
});
