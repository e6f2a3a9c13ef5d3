import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 1000 } });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createCron(body: Record<string, unknown>): Promise<string> {
  const response = await app.request('POST', '/api/v1/crons', { key: team.key, body });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function eventsOf(cronId: string, status?: string) {
  const query = `cron_id=${cronId}&limit=1000${status ? `&status=${status}` : ''}`;
  const response = await app.request('GET', `/api/v1/events?${query}`, { key: team.key });
  return response.body.data as {
    id: string;
    scheduled_at: string;
    status: string;
    executed_at: string | null;
  }[];
}

describe('cron delivery', () => {
  it('delivers every occurrence of a per-second cron once, on time', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/every-second`,
      cron_expression: '* * * * * *',
    });
    const calls = await receiver.waitFor(4, (r) => r.path === '/every-second', 8000);
    const scheduled = new Map(
      (await eventsOf(cronId)).map((event) => [event.id, Date.parse(event.scheduled_at)] as const),
    );
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
    const ids = calls.map((call) => String(call.headers['webhook-id']));
    expect(new Set(ids).size).toBe(ids.length);
    // Each call is its own second's occurrence, never early, and made on its own time rather than
    // caught up later. How punctual is bench/delivery's and bench/scale's to say: on a loaded machine
    // a bound of 250 ms failed here (617 and 792 ms).
    const dueAt = ids.map((id) => scheduled.get(id) ?? Number.NaN);
    expect(new Set(dueAt.map((at) => Math.floor(at / 1000))).size).toBe(calls.length);
    calls.forEach((call, i) => {
      expect(call.at).toBeGreaterThanOrEqual(dueAt[i]!);
      expect(call.at - dueAt[i]!).toBeLessThan(2000);
    });
  });

  it('keeps the next occurrences as pending events within the horizon', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/horizon`,
      cron_expression: '*/10 * * * * *',
    });
    const pending = await eventsOf(cronId, 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(5);
    expect(pending.length).toBeLessThanOrEqual(7);
    for (const event of pending) expect(new Date(event.scheduled_at).getUTCSeconds() % 10).toBe(0);
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
  });

  it('materializes the single next occurrence of a yearly cron in its time zone', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/yearly`,
      cron_expression: '0 9 1 1 *',
      timezone: 'Europe/Paris',
    });
    const pending = await eventsOf(cronId, 'pending');
    expect(pending).toHaveLength(1);
    const next = new Date(pending[0]!.scheduled_at);
    expect(next.toISOString()).toBe(`${new Date().getUTCFullYear() + 1}-01-01T08:00:00.000Z`);
  });

  it('stops the old schedule once a PUT has answered and follows the new one', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/before-put`,
      cron_expression: '* * * * * *',
    });
    await receiver.waitFor(1, (r) => r.path === '/before-put', 5000);
    const replaced = await app.request('PUT', `/api/v1/crons/${cronId}`, {
      key: team.key,
      body: { webhook_url: `${receiver.url}/after-put`, cron_expression: '* * * * * *' },
    });
    expect(replaced.status).toBe(200);
    const answeredAt = Date.now();
    await receiver.waitFor(2, (r) => r.path === '/after-put', 5000);
    expect(receiver.requests.filter((r) => r.path === '/before-put' && r.at > answeredAt)).toHaveLength(0);
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
  });

  it('stops on deactivation and resumes from the next occurrence without back-filling', async () => {
    const body = { webhook_url: `${receiver.url}/toggle`, cron_expression: '* * * * * *' };
    const cronId = await createCron(body);
    await receiver.waitFor(1, (r) => r.path === '/toggle', 5000);
    await app.request('PUT', `/api/v1/crons/${cronId}`, {
      key: team.key,
      body: { ...body, is_active: false },
    });
    const pausedAt = Date.now();
    expect(await eventsOf(cronId, 'pending')).toHaveLength(0);
    await sleep(2500);
    expect(receiver.requests.filter((r) => r.path === '/toggle' && r.at > pausedAt)).toHaveLength(0);
    await app.request('PUT', `/api/v1/crons/${cronId}`, {
      key: team.key,
      body: { ...body, is_active: true },
    });
    const resumedAt = Date.now();
    const pending = await eventsOf(cronId, 'pending');
    expect(pending.every((event) => new Date(event.scheduled_at).getTime() > resumedAt)).toBe(true);
    await receiver.waitFor(1, (r) => r.path === '/toggle' && r.at > resumedAt, 5000);
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
  });

  it('sends nothing once a DELETE has answered', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/deleted-cron`,
      cron_expression: '* * * * * *',
    });
    await receiver.waitFor(1, (r) => r.path === '/deleted-cron', 5000);
    expect((await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key })).status).toBe(200);
    const deletedAt = Date.now();
    await sleep(2500);
    expect(receiver.requests.filter((r) => r.path === '/deleted-cron' && r.at > deletedAt)).toHaveLength(0);
    const [count] = await app.sql<{ n: string }>('select count(*) as n from events where cron_id = $1', [
      cronId,
    ]);
    expect(Number(count!.n)).toBe(0);
  });

  it('accepts a cron that only falls in DST gaps and looks at it again an hour later', async () => {
    // 02:30 on the last Sunday of March does not exist in Paris: the clocks jump from 02:00 to 03:00.
    const cronId = await createCron({
      webhook_url: `${receiver.url}/never`,
      cron_expression: '30 2 * 3 0L',
      timezone: 'Europe/Paris',
    });
    expect(await eventsOf(cronId)).toHaveLength(0);
    const [row] = await app.sql<{ materialized_until: Date }>(
      'select materialized_until from crons where id = $1',
      [cronId],
    );
    const wait = row!.materialized_until.getTime() - Date.now();
    expect(wait).toBeGreaterThan(59 * 60_000);
    expect(wait).toBeLessThanOrEqual(60 * 60_000);
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
  });

  it('tops up the occurrences as they fire', async () => {
    const cronId = await createCron({
      webhook_url: `${receiver.url}/top-up`,
      cron_expression: '* * * * * *',
    });
    const before = await eventsOf(cronId);
    const lastBefore = Math.max(...before.map((event) => new Date(event.scheduled_at).getTime()));
    const after = await eventually(
      () => eventsOf(cronId),
      (events) => events.some((event) => new Date(event.scheduled_at).getTime() > lastBefore),
      5000,
    );
    expect(after.length).toBeGreaterThan(before.length);
    await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
  });
});
