import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDashboardDir } from '../../src/dashboard/spa.router.js';
import { type TestApp, startTestApp } from '../harness.js';
import { type TestUser, as, signUp } from '../sessions.js';
import { hasChromium, launchBrowser } from './chromium.js';
import { expectAccessible, signUpInPage, teamOfPage } from './dashboard-user.js';

// The forms and settings of the dashboard, and what a user sees of changes made elsewhere.

let app: TestApp;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;

const fieldErrors = () => page.locator('.field-error[id]').allInnerTexts();
const teamsInSwitcher = () => page.getByLabel('Team').locator('option').allInnerTexts();

/** A team made by `owner` outside the page, with `email` added to it. */
async function teamWith(owner: TestUser, name: string, email: string): Promise<string> {
  const team = await app.request('POST', '/api/dashboard/teams', as(owner, { body: { name } }));
  expect(team.status, team.text).toBe(201);
  const id = team.body.data.id as string;
  const added = await app.request(
    'POST',
    `/api/dashboard/teams/${id}/members`,
    as(owner, { body: { email, role: 'member' } }),
  );
  expect(added.status, added.text).toBe(201);
  return id;
}

describe.skipIf(!hasChromium)('the dashboard’s forms in Chromium', () => {
  beforeAll(async () => {
    if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
    app = await startTestApp();
    browser = await launchBrowser({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the sign-in and sign-up pages without accessibility violations, each with its title', async () => {
    await page.context().clearCookies();
    await page.goto(`${app.url}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.title()).toBe('Sign in · Webhook Scheduler');
    await expectAccessible(page, 'the sign-in page');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await expect.poll(() => page.title()).toBe('Create your account · Webhook Scheduler');
    await expectAccessible(page, 'the sign-up page');
  });

  it('names every problem of a cron at once, in plain words', async () => {
    await signUpInPage(page, app);
    await page.goto(`${app.url}/t/${teamOfPage(page)}/crons/new`);
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByLabel('Webhook URL').fill('not a url');
    await page.getByRole('button', { name: 'Create cron' }).click();

    await expect
      .poll(fieldErrors)
      .toEqual([
        'Minute field "61": 61 is out of range: minutes go from 0 to 59',
        'Must be an IANA time zone name such as "Europe/Paris"',
        'Not a valid URL: it must be absolute, such as https://example.com/hook',
      ]);
    expect(await page.getByRole('alert').innerText()).toBe('Fix the fields marked below.');
    await expectAccessible(page, 'the cron form with errors');
  });

  it('shows the schedule’s problem with the problems found before sending', async () => {
    await page.getByLabel('Time zone').fill('');
    await page.getByLabel('Webhook URL').fill('https://example.com/hook');
    await page.getByLabel('Payload (JSON)').fill('{ "user": 42');
    // Sent at once: the preview has not checked the new schedule yet, and joins in when it has.
    await page.getByLabel('Cron expression').fill('0 22-2 * * *');
    await page.getByRole('button', { name: 'Create cron' }).click();
    await expect
      .poll(fieldErrors)
      .toEqual([
        'Hour field "22-2": the range 22-2 runs backwards: ranges do not wrap around, so write 22-23,0-2',
        expect.stringMatching(/^Not valid JSON/),
      ]);
  });

  it('keeps the seconds of every next run of a schedule with seconds, the whole minutes too', async () => {
    await page.getByLabel('Cron expression').fill('*/30 * * * * *');
    await page.getByLabel('Time zone').fill('UTC');
    const runs = page.getByTestId('preview').locator('tbody tr td:first-child');
    await expect.poll(() => runs.count()).toBe(5);
    const times = (await runs.allInnerTexts()).map((text) => text.split(', ').at(-1));
    expect(times.every((time) => /^\d\d:\d\d:(00|30)$/.test(time ?? ''))).toBe(true);
    expect(times.some((time) => time?.endsWith(':00'))).toBe(true);
  });

  it('offers no Leave to the only owner and says why, and offers it once there is another owner', async () => {
    const teamId = teamOfPage(page);
    await page.goto(`${app.url}/t/${teamId}/settings`);
    const self = page.locator('.members li', { hasText: '(you)' });
    await expect
      .poll(() => self.getByTestId('cannot-leave').innerText())
      .toBe('You are its only member and owner. A team keeps at least one owner, so it cannot be left.');
    expect(await self.getByRole('button', { name: 'Leave' }).count()).toBe(0);
    await expectAccessible(page, 'the settings page');

    const other = await signUp(app);
    await page.getByLabel('Add a member by email').fill(other.email);
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => self.getByTestId('cannot-leave').innerText()).toMatch(/add another owner/);

    const second = await signUp(app);
    await page.getByLabel('Add a member by email').fill(second.email);
    await page.getByLabel('Role').selectOption('owner');
    await page.getByRole('button', { name: 'Add' }).click();
    await self.getByRole('button', { name: 'Leave' }).waitFor();
    expect(await self.getByTestId('cannot-leave').count()).toBe(0);
  });

  it('shows a team the user was added to when the window regains focus, and when they move on', async () => {
    const email = await signUpInPage(page, app);
    const teamId = teamOfPage(page);
    const owner = await signUp(app);

    await teamWith(owner, 'Added while looking', email);
    expect(await teamsInSwitcher()).not.toContain('Added while looking');
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect.poll(teamsInSwitcher).toContain('Added while looking');

    await teamWith(owner, 'Added meanwhile', email);
    await page.getByRole('link', { name: 'Crons' }).click();
    await page.waitForURL(`**/t/${teamId}/crons`);
    await expect.poll(teamsInSwitcher).toContain('Added meanwhile');
  });
});
