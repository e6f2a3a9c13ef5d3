import { randomBytes } from 'node:crypto';
import { type WebhookSchedulerError, createClient } from '@webhook-scheduler/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDashboardDir } from '../../src/dashboard/spa.router.js';
import { type TestApp, startTestApp } from '../harness.js';
import { type Receiver, startReceiver } from '../receiver.js';
import { hasChromium, launchBrowser } from './chromium.js';

// The dashboard as a person uses it: the real app with its in-process scheduler, the built SPA,
// Debian's Chromium, and a webhook receiver on loopback.

let app: TestApp;
let receiver: Receiver;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;

const email = () => `ada-${randomBytes(4).toString('hex')}@example.com`;
const PASSWORD = 'correct horse battery';

/** Signs a new user up from a signed-out browser; lands on their first team's events. */
async function signUp(address = email()): Promise<string> {
  await browser.context.clearCookies();
  await page.goto(`${app.url}/`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Send your first webhook' }).waitFor();
  return address;
}

/** The team id in the address bar (`/t/<id>/…`). */
const teamOfPage = () => new URL(page.url()).pathname.split('/')[2] ?? '';

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  beforeAll(async () => {
    if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
    app = await startTestApp({ scheduler: {} });
    receiver = await startReceiver();
    browser = await launchBrowser({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  it('takes a new user from sign-up to a delivered webhook, and a revoked key to 401', async () => {
    await page.goto(`${app.url}/`);
    await page.waitForURL('**/sign-in');
    await signUp();

    // A second team, made from the team switcher; the rest happens in it.
    const firstTeam = teamOfPage();
    await page.getByLabel('Team').selectOption({ label: '+ New team…' });
    await page.getByLabel('Team name').fill('Acme');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'Send your first webhook' }).waitFor();
    const teamId = teamOfPage();
    expect(teamId).not.toBe(firstTeam);
    await expect.poll(() => page.getByLabel('Team').inputValue()).toBe(teamId);

    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-key').locator('pre').first().innerText()).trim();
    expect(key).toMatch(/^whs_[0-9A-Za-z]{40}$/);
    await expect.poll(() => page.getByTestId('new-key').locator('pre').nth(1).innerText()).toContain(key);

    const client = createClient({ baseUrl: app.url, apiKey: key });
    const event = await client.events.create({
      webhook_url: `${receiver.url}/first`,
      scheduled_at: new Date(Date.now() + 1500).toISOString(),
      payload: { hello: 'dashboard' },
    });
    expect(event.team_id).toBe(teamId);

    // The list refreshes by itself until the scheduler has delivered it.
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.locator('[data-testid=event-row][data-status=success]').waitFor({ timeout: 20_000 });
    expect(receiver.requests.filter((r) => r.path === '/first')).toHaveLength(1);
    await page.getByTestId('event-row').getByRole('link').first().click();
    await expect.poll(() => page.getByTestId('response-status').innerText()).toBe('200');
    await expect.poll(() => page.getByTestId('attempts').innerText()).toMatch(/First attempt\s*success/i);

    await page.getByRole('link', { name: 'Settings' }).click();
    const row = page.locator('[data-testid=key-row]', { hasText: 'My first key' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('[data-testid=key-row][data-state=revoked]').waitFor();

    const refused = await client.events.list().then(
      () => undefined,
      (error: unknown) => error as WebhookSchedulerError,
    );
    expect(refused?.status).toBe(401);
    expect(refused?.code).toBe('UNAUTHORIZED');
  }, 60_000);

  it('previews a cron in its zone and the viewer’s, shows the API’s validation message, pauses and deletes it', async () => {
    await signUp();
    const teamId = teamOfPage();
    await page.goto(`${app.url}/t/${teamId}/crons/new`);
    await page.getByLabel('Cron expression').fill('0 9 * * MON-FRI');
    await page.getByLabel('Time zone').fill('America/New_York');
    const preview = page.getByTestId('preview');
    await expect
      .poll(() => preview.locator('th').allInnerTexts())
      .toEqual(['IN AMERICA/NEW_YORK', 'YOUR TIME (EUROPE/PARIS)', 'WHEN']);
    const firstRun = await preview.locator('tbody tr').first().locator('td').allInnerTexts();
    expect(firstRun[0]).toMatch(/^(Mon|Tue|Wed|Thu|Fri) \d+ \w+, 09:00$/);
    // New York is 6 hours behind Paris, 5 in the weeks their DST changes do not line up.
    expect(firstRun[1]).toMatch(/, 1[45]:00$/);

    await page.getByLabel('Cron expression').fill('0 9 * * FUNDAY');
    await expect
      .poll(() => page.locator('.field-error').allInnerTexts())
      .toEqual([expect.stringMatching(/^Day of week field "FUNDAY"/)]);

    await page.getByLabel('Cron expression').fill('*/5 * * * *');
    await page.getByLabel('Webhook URL').fill('ftp://example.com/nope');
    await page.getByRole('button', { name: 'Create cron' }).click();
    await expect
      .poll(() => page.locator('.field-error').allInnerTexts())
      .toContain('Must use http or https, not ftp');

    await page.getByLabel('Webhook URL').fill(`${receiver.url}/cron`);
    await page.getByRole('button', { name: 'Create cron' }).click();
    await page.waitForURL(`**/t/${teamId}/crons`);
    const row = page.getByTestId('cron-row');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('switch').click();
    await expect.poll(() => row.getByRole('switch').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Paused' }).click();
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete cron' }).click();
    await page.getByRole('heading', { name: 'No paused crons' }).waitFor();
  }, 60_000);

  it('signs out, refuses a wrong password with a message, and signs back in', async () => {
    const address = await signUp();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Email or password is incorrect.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  }, 30_000);
});
