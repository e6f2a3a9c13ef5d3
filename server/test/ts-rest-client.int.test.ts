import { initClient } from '@ts-rest/core';
import { contract } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inFuture } from './factories.js';
import { type TestApp, type TestTeam, startTestApp } from './harness.js';

// What contract/README.md shows users of the published contract: ts-rest's initClient over it,
// against the real service.

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
});

describe('a ts-rest client made with initClient(contract)', () => {
  it('creates and lists through the typed routes, with a typed body for each status', async () => {
    const client = initClient(contract, {
      baseUrl: app.url,
      baseHeaders: { authorization: `Bearer ${team.key}` },
    });
    const created = await client.events.create({
      body: { webhook_url: 'https://example.com/hooks/reminder', scheduled_at: inFuture() },
    });
    if (created.status !== 201)
      throw new Error(`expected 201, got ${created.status}: ${created.body.error.code}`);
    expect(created.body.data).toMatchObject({ status: 'pending', method: 'POST' });

    await client.crons.create({
      body: { webhook_url: 'https://example.com/tick', cron_expression: '@daily' },
    });
    const page = await client.crons.list({ query: { page: '0', limit: '10' } });
    expect(page.status).toBe(200);
    if (page.status === 200) expect(page.body.pagination).toEqual({ page: 0, limit: 10, total: 1 });
  });

  it('hands errors over as their status and ErrorBody', async () => {
    const client = initClient(contract, {
      baseUrl: app.url,
      baseHeaders: { authorization: 'Bearer whs_wrong' },
    });
    const refused = await client.events.list({ query: {} });
    expect(refused.status).toBe(401);
    if (refused.status === 401) expect(refused.body.error.code).toBe('UNAUTHORIZED');
  });
});
