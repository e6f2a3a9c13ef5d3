import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';

// The reconcile runs once a minute here, so only the scheduler's watch of the holds it began
// (worker/hold-ends.ts) can let the team's held calls go when a Retry-After ends.

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 2000, tuning: { reconcileEveryMs: 60_000 } } });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

async function scheduleOne(path: string): Promise<void> {
  const created = await app.request('POST', '/api/v1/events', {
    key: team.key,
    body: { webhook_url: `${receiver.url}${path}`, scheduled_at: new Date(Date.now() + 300).toISOString() },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

describe('a Retry-After that ends before the next reconcile', () => {
  it('holds the team’s other calls to the origin until it ends, then sends them at once', async () => {
    receiver.reply('/busy', () => ({ status: 429, headers: { 'retry-after': '2' } }));
    await scheduleOne('/busy');
    await receiver.waitFor(1);
    const refusedAt = receiver.requests[0]!.at;
    await scheduleOne('/held');
    const [, held] = await receiver.waitFor(2, () => true, 15_000);
    expect(held!.path).toBe('/held');
    expect(held!.at - refusedAt).toBeGreaterThanOrEqual(1900);
  });
});
