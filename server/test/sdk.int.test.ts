import {
  type EventInput,
  type WebhookSchedulerClient,
  type WebhookSchedulerError,
  createClient,
  isWebhookSchedulerError,
} from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from './harness.js';

// The SDK, as published (the built package), against the real app over its own PostgreSQL.

let app: TestApp;
let team: TestTeam;
let client: WebhookSchedulerClient;

beforeAll(async () => {
  app = await startTestApp({ bodyLimitBytes: 16 * 1024 });
  team = await app.createTeam();
  client = createClient({ baseUrl: app.url, apiKey: team.key, retry: 0 });
});
afterAll(() => app.close());

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

function eventInput(overrides: Partial<EventInput> = {}): EventInput {
  return {
    webhook_url: 'https://example.com/hooks/reminder',
    scheduled_at: inAMinute(),
    payload: { user: 42 },
    retry_config: { maxRetries: 3, backoffMs: 1000 },
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<WebhookSchedulerError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isWebhookSchedulerError(error)).toBe(true);
  return error as WebhookSchedulerError;
}

describe('events through the SDK', () => {
  it('creates, reads, lists, replaces and deletes an event', async () => {
    const created = await client.events.create(eventInput());
    expect(created).toMatchObject({
      status: 'pending',
      method: 'POST',
      payload: { user: 42 },
      retry_config: { maxRetries: 3, backoffMs: 1000, backoffType: 'exponential' },
      team_id: team.teamId,
    });

    await expect(client.events.get(created.id)).resolves.toEqual(created);
    const page = await client.events.list({ status: 'pending', limit: 10 });
    expect(page.data.map((event) => event.id)).toContain(created.id);
    expect(page.pagination).toMatchObject({ page: 0, limit: 10 });

    const replaced = await client.events.update(created.id, eventInput({ method: 'PUT', payload: null }));
    expect(replaced).toMatchObject({ id: created.id, method: 'PUT', payload: null });

    await expect(client.events.delete(created.id)).resolves.toEqual({ success: true });
    const gone = await rejection(client.events.get(created.id));
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(gone.requestId).toMatch(/.+/);
  });

  it('walks every page with listAll without requesting a page past the end', async () => {
    const other = await app.createTeam('pages');
    const pages = createClient({ baseUrl: app.url, apiKey: other.key, retry: 0 });
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push((await pages.events.create(eventInput())).id);

    const listed: string[] = [];
    for await (const event of pages.events.listAll({ limit: 2 })) listed.push(event.id);

    expect(listed).toEqual([...ids].reverse());
  });
});

describe('crons through the SDK', () => {
  it('creates, reads, lists by activity, replaces and deletes a cron', async () => {
    const created = await client.crons.create({
      webhook_url: 'https://example.com/hooks/daily-report',
      cron_expression: '0 9 * * MON-FRI',
      timezone: 'Europe/Paris',
    });
    expect(created).toMatchObject({ is_active: true, timezone: 'Europe/Paris', method: 'POST' });

    await expect(client.crons.get(created.id)).resolves.toEqual(created);
    const active = await client.crons.list({ is_active: true });
    expect(active.data.map((cron) => cron.id)).toContain(created.id);

    const paused = await client.crons.update(created.id, {
      webhook_url: created.webhook_url,
      cron_expression: '*/5 * * * *',
      is_active: false,
    });
    expect(paused).toMatchObject({ cron_expression: '*/5 * * * *', is_active: false, timezone: null });
    const inactive = await client.crons.list({ is_active: false });
    expect(inactive.data.map((cron) => cron.id)).toEqual([created.id]);

    await expect(client.crons.delete(created.id)).resolves.toEqual({ success: true });
    await expect(rejection(client.crons.get(created.id))).resolves.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('collects every cron with listAll', async () => {
    const before = (await client.crons.list()).pagination.total;
    for (let index = 0; index < 3; index += 1) {
      await client.crons.create({ webhook_url: 'https://example.com/hooks/c', cron_expression: '@hourly' });
    }

    let count = 0;
    for await (const _cron of client.crons.listAll({ limit: 1 })) count += 1;

    expect(count).toBe(before + 3);
  });
});

describe('errors from the real API', () => {
  it('maps a wrong key to UNAUTHORIZED with the API’s message', async () => {
    const stranger = createClient({ baseUrl: app.url, apiKey: 'whs_wrong', retry: 0 });

    const error = await rejection(stranger.events.list());

    expect(error).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Unauthorized. Invalid or missing API key.',
    });
  });

  it('maps a past scheduled_at to VALIDATION_ERROR naming the field', async () => {
    const error = await rejection(client.events.create(eventInput({ scheduled_at: '2001-01-01T00:00:00Z' })));

    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(error.details).toEqual([expect.objectContaining({ path: ['scheduled_at'] })]);
  });

  it('maps an id that is not a UUID to VALIDATION_ERROR on id', async () => {
    const error = await rejection(client.crons.get('not-a-uuid'));

    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: ['id'] })],
    });
  });

  it('maps an update of an event that is no longer pending to BAD_REQUEST with currentStatus', async () => {
    const event = await client.events.create(eventInput());
    await app.orm.em
      .fork()
      .getConnection()
      .execute(`update events set status = 'success' where id = ?`, [event.id]);

    const error = await rejection(client.events.update(event.id, eventInput()));

    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', details: { currentStatus: 'success' } });
  });

  it('maps a body over the size limit to 413 VALIDATION_ERROR', async () => {
    const error = await rejection(
      client.events.create(eventInput({ payload: { blob: 'x'.repeat(20_000) } })),
    );

    expect(error).toMatchObject({ status: 413, code: 'VALIDATION_ERROR' });
  });

  it('answers another team’s event as NOT_FOUND', async () => {
    const event = await client.events.create(eventInput());
    const other = await app.createTeam('other');
    const outsider = createClient({ baseUrl: app.url, apiKey: other.key, retry: 0 });

    await expect(rejection(outsider.events.get(event.id))).resolves.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
