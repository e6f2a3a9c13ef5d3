import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type WebhookSchedulerClient, createClient } from '@webhook-scheduler/sdk';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createApiKey } from '../../src/teams/teams.service.js';
import { REPO_ROOT } from '../guide-samples.js';
import type { TestApp } from '../harness.js';
import { seriousViolations } from './axe.js';
import { launchBrowser } from './chromium.js';

export const PASSWORD = 'correct horse battery';

/** A fresh email address. */
export const browserEmail = (name = 'ada') => `${name}-${randomBytes(4).toString('hex')}@example.com`;

/** Signs a new user up in the page (signed out first); lands on their first team's events. */
export async function signUpInPage(page: Page, app: TestApp, email = browserEmail()): Promise<string> {
  await page.context().clearCookies();
  await page.goto(`${app.url}/sign-up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Send your first webhook' }).waitFor();
  return email;
}

/** The team id in the page's address (`/t/<id>/…`). */
export const teamOfPage = (page: Page) => new URL(page.url()).pathname.split('/')[2] ?? '';

/** An API key of the team, made without the page. */
export async function keyOf(app: TestApp, teamId: string): Promise<string> {
  return (await createApiKey(app.orm.em.fork(), teamId, { name: 'browser test' }, new Date())).key;
}

/** Asserts that axe-core finds no serious or critical violation in the page as it is. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  expect(await seriousViolations(page), `axe-core on ${state}`).toEqual([]);
}

/** A laptop-sized Chromium on Paris time, signed up as a new user, and an SDK client of their team. */
export async function openSignedIn(app: TestApp): Promise<{
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  page: Page;
  teamId: string;
  client: WebhookSchedulerClient;
}> {
  const browser = await launchBrowser({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' });
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(15_000);
  await signUpInPage(page, app);
  const teamId = teamOfPage(page);
  const client = createClient({ baseUrl: app.url, apiKey: await keyOf(app, teamId) });
  return { browser, page, teamId, client };
}

/** With `UPDATE_SCREENSHOTS=1`, writes the whole page to docs/screenshots/`name`.png. */
export async function shootForDocs(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  await page.waitForTimeout(300);
  await page.screenshot({
    path: path.join(REPO_ROOT, 'docs', 'screenshots', `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}
