import { type WebhookSchedulerClient, createClient } from '@webhook-scheduler/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtDashboardDir } from '../../src/dashboard/spa.router.js';
import { type TestApp, startTestApp } from '../harness.js';
import { type Receiver, startReceiver } from '../receiver.js';
import { hasChromium, launchBrowser } from './chromium.js';
import { expectAccessible, keyOf, shootForDocs, signUpInPage, teamOfPage } from './dashboard-user.js';

// The operator controls in the dashboard: Replay on a finished event, Run now on a cron, and the
// banner of a cron the service paused after failed runs. `UPDATE_SCREENSHOTS=1` also writes them
// to docs/screenshots.

let app: TestApp;
let receiver: Receiver;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let teamId: string;
let client: WebhookSchedulerClient;
const settled = { timeout: 20_000, interval: 200 };

const shoot = (name: string) => shootForDocs(page, name);

const callsTo = (pathName: string) => receiver.requests.filter((request) => request.path === pathName);

describe.skipIf(!hasChromium)('the operator controls in Chromium', () => {
  beforeAll(async () => {
    if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
    app = await startTestApp({ scheduler: {} });
    receiver = await startReceiver();
    receiver.reply('/broken', { status: 500, body: 'boom' });
    browser = await launchBrowser({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    await signUpInPage(page, app);
    teamId = teamOfPage(page);
    client = createClient({ baseUrl: app.url, apiKey: await keyOf(app, teamId) });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  it('replays a failed event from its page and shows the new event', async () => {
    const failed = await client.events.create({
      webhook_url: `${receiver.url}/replayed`,
      scheduled_at: new Date(Date.now() + 500).toISOString(),
    });
    receiver.reply('/replayed', (_, count) => (count === 1 ? { status: 500 } : { status: 200 }));
    await vi.waitFor(async () => expect((await client.events.get(failed.id)).status).toBe('failed'), settled);

    await page.goto(`${app.url}/t/${teamId}/events/${failed.id}`);
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('Replay of').waitFor();
    const replayId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect(replayId).not.toBe(failed.id);
    await expect.poll(() => page.locator('h1').innerText(), settled).toMatch(/success/i);
    expect(callsTo('/replayed')).toHaveLength(2);
    await expectAccessible(page, 'a replayed event');
    await shoot('event-replay');
  });

  it('runs a cron now from the crons page', async () => {
    const cron = await client.crons.create({
      webhook_url: `${receiver.url}/run-now`,
      cron_expression: '0 0 1 1 *',
      is_active: false,
    });
    await page.goto(`${app.url}/t/${teamId}/crons`);
    const row = page.getByTestId('cron-row').filter({ hasText: '/run-now' });
    await row.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('Created by').waitFor();
    await expect.poll(() => page.locator('h1').innerText(), settled).toMatch(/success/i);
    expect(callsTo('/run-now')).toHaveLength(1);
    const events = await client.events.list({ cron_id: cron.id });
    expect(events.data.map((event) => event.id)).toEqual([new URL(page.url()).pathname.split('/').at(-1)]);
  });

  it('shows why the service paused a cron, with its runs, and resumes it with the switch', async () => {
    const cron = await client.crons.create({
      webhook_url: `${receiver.url}/broken`,
      cron_expression: '* * * * * *',
      pause_after_failures: 2,
    });
    await vi.waitFor(async () => expect((await client.crons.get(cron.id)).is_active).toBe(false), settled);

    await page.goto(`${app.url}/t/${teamId}/crons`);
    const row = page.getByTestId('cron-row').filter({ hasText: '/broken' });
    await expect.poll(() => row.getByRole('status').innerText()).toBe('Paused after 2 failed runs in a row');
    await expect.poll(() => row.locator('td[data-label=Runs]').innerText()).toMatch(/2 failures in a row/);
    await expect.poll(() => row.locator('td[data-label=Runs]').innerText()).toMatch(/Next: none/);
    await expectAccessible(page, 'a paused cron');
    await shoot('cron-paused');

    await row.getByRole('switch').click();
    await expect.poll(async () => (await client.crons.get(cron.id)).paused_reason).toBeNull();
    await expect.poll(() => row.getByRole('status').count()).toBe(0);
    await client.crons.delete(cron.id);
  });

  it('sets the team’s alert URL in the settings', async () => {
    await page.goto(`${app.url}/t/${teamId}/settings`);
    await page.getByLabel('Alert URL').fill(`${receiver.url}/alerts`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const [row] = await app.sql<{ alert_url: string | null }>('select alert_url from teams where id = $1', [
      teamId,
    ]);
    expect(row?.alert_url).toBe(`${receiver.url}/alerts`);
    await page.getByText('Alerts are on.').waitFor();
    await expectAccessible(page, 'the alerts setting');
    await page.locator('#alerts').scrollIntoViewIfNeeded();
    await shoot('settings-alerts');
  });

  it('turns the team’s traceparent header on in the settings', async () => {
    await page.goto(`${app.url}/t/${teamId}/settings`);
    await page.getByLabel('Send a traceparent header with every webhook call').check();
    await page.getByText('Webhook calls carry a traceparent header.', { exact: true }).waitFor();
    const [row] = await app.sql<{ send_traceparent: boolean }>(
      'select send_traceparent from teams where id = $1',
      [teamId],
    );
    expect(row?.send_traceparent).toBe(true);
    await expectAccessible(page, 'the tracing setting');
  });
});
