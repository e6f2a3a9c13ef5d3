import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createApiKey } from '../../src/teams/teams.service.js';
import type { TestApp } from '../harness.js';
import { seriousViolations } from './axe.js';

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
