import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDashboardDir } from '../../src/dashboard/spa.router.js';
import { RESET_LINK_VALID_MS, createPasswordResetLink } from '../../src/users/password-resets.service.js';
import { type TestApp, startTestApp } from '../harness.js';
import { hasChromium, launchBrowser } from './chromium.js';
import { PASSWORD, browserEmail, expectAccessible, signUpInPage, teamOfPage } from './dashboard-user.js';

// The doors people walk through in the page: an invite link from Settings → Members, and the
// page of a password-reset link.

let app: TestApp;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;

describe.skipIf(!hasChromium)('invites and password resets in Chromium', () => {
  beforeAll(async () => {
    if (!builtDashboardDir()) throw new Error('dashboard/dist is missing: run `npx turbo run build` first');
    app = await startTestApp();
    browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lets an owner invite by email, and the invited person sign up from the link into the team', async () => {
    const owner = await signUpInPage(page, app);
    const teamId = teamOfPage(page);
    const teamName = `${owner.split('@')[0]}'s team`;
    await page.goto(`${app.url}/t/${teamId}/settings`);
    const keys = page.getByTestId('usage').filter({ hasText: 'Active API keys' });
    expect(await keys.locator('.usage-figures').innerText()).toBe('0 of 100 · 0 %');
    const invited = browserEmail('grace');
    await page.getByLabel('Email to invite').fill(invited);
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = await page.getByTestId('invite-link').locator('code').innerText();
    expect(link).toMatch(new RegExp(`^${app.url}/invite#[A-Za-z0-9_-]{43}$`));
    await page.getByRole('list', { name: 'Pending invites' }).getByText(invited, { exact: true }).waitFor();
    await expectAccessible(page, 'the settings with an invite link');

    await page.context().clearCookies();
    await page.goto(link);
    await page.getByRole('heading', { name: `Join ${teamName}` }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(invited);
    await expectAccessible(page, 'the page of an invite link');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account and join' }).click();

    await page.waitForURL(`${app.url}/t/${teamId}/overview`);
    const switcher = page.getByRole('combobox', { name: 'Team' });
    expect(await switcher.inputValue()).toBe(teamId);
    expect(await switcher.locator('option:checked').innerText()).toBe(teamName);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.locator('.user-email').innerText()).toBe(invited);

    await page.goto(link);
    await page.getByRole('alert').getByText('This invite link was used already').waitFor();
  });

  it('sets a new password from a reset link and signs the user in', async () => {
    const email = await signUpInPage(page, app);
    const [user] = await app.sql<{ id: string }>('select id from users where email = $1', [email]);
    const { token } = await createPasswordResetLink(
      app.orm.em.fork(),
      user?.id ?? '',
      RESET_LINK_VALID_MS,
      new Date(),
    );
    await page.context().clearCookies();
    await page.goto(`${app.url}/reset-password#${token}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectAccessible(page, 'the page of a password reset link');
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]+\/overview$/);
    expect(await page.locator('.user-email').innerText()).toBe(email);
  });
});
