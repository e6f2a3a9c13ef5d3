import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../test/harness.js';

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
});
afterAll(() => app.close());

describe('smoke', () => {
  it('creates an event and reads it back', async () => {
    const created = await app.request('POST', '/api/v1/events', {
      key: team.key,
      body: {
        webhook_url: 'https://example.com/hook',
        scheduled_at: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const read = await app.request('GET', `/api/v1/events/${created.body.data.id}`, { key: team.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
  });
});
