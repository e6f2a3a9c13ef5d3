import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/expect.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;
let team: TestTeam;
let other: TestTeam;

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const list = (query: string, who: TestTeam = team) =>
  app.request('GET', `/api/v1/events?${query}`, { key: who.key });

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
  other = await app.createTeam();
  const urls = [
    'https://billing.example.com/hooks/Invoice',
    'https://billing.example.com/hooks/refund',
    'https://crm.example.org/in?tag=50%_off',
  ];
  for (const [index, webhook_url] of urls.entries()) {
    const created = await app.request('POST', '/api/v1/events', {
      key: team.key,
      body: { webhook_url, scheduled_at: later(10 + index) },
    });
    expect(created.status, created.text).toBe(201);
  }
  await app.request('POST', '/api/v1/events', {
    key: other.key,
    body: { webhook_url: 'https://billing.example.com/hooks/invoice', scheduled_at: later(10) },
  });
});
afterAll(() => app.close());

describe('GET /api/v1/events?url_contains=', () => {
  it('lists the team’s events whose URL contains the text, ignoring case, with their exact total', async () => {
    const response = await list('url_contains=INVOICE');
    expect(response.status).toBe(200);
    expect(response.body.data.map((event: { webhook_url: string }) => event.webhook_url)).toEqual([
      'https://billing.example.com/hooks/Invoice',
    ]);
    expect(response.body.pagination.total).toBe(1);
    expect((await list('url_contains=billing.example&limit=1')).body.pagination.total).toBe(2);
  });

  it('reads % and _ as plain characters', async () => {
    expect((await list(`url_contains=${encodeURIComponent('50%_')}`)).body.pagination.total).toBe(1);
    expect((await list(`url_contains=${encodeURIComponent('%')}`)).body.pagination.total).toBe(1);
  });

  it('combines with the other filters', async () => {
    expect((await list('url_contains=billing&status=pending')).body.pagination.total).toBe(2);
    expect((await list('url_contains=billing&status=failed')).body.pagination.total).toBe(0);
    expect((await list(`url_contains=billing&scheduled_after=${later(10.5)}`)).body.pagination.total).toBe(1);
  });

  it('answers 400 VALIDATION_ERROR for an empty or too long text', async () => {
    expectError(await list('url_contains='), 400, 'VALIDATION_ERROR');
    expectError(await list(`url_contains=${'a'.repeat(201)}`), 400, 'VALIDATION_ERROR');
  });
});
