import {
  type EventInput,
  type WebhookSchedulerClient,
  type WebhookSchedulerError,
  createClient,
  isWebhookSchedulerError,
} from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent } from './factories.js';
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

  it('lists events by scheduled time within bounds', async () => {
    const own = await app.createTeam();
    const ownClient = createClient({ baseUrl: app.url, apiKey: own.key, retry: 0 });
    const base = Date.now() + 3_600_000;
    const times = [3, 1, 2, 0].map((n) => new Date(base + n * 60_000).toISOString());
    const created = [];
    for (const scheduled_at of times)
      created.push(await ownClient.events.create(eventInput({ scheduled_at })));
    const page = await ownClient.events.list({
      sort: 'scheduled_at',
      scheduled_after: times[1],
      scheduled_before: times[0],
    });
    expect(page.data.map((event) => event.scheduled_at)).toEqual([times[1], times[2]]);
    expect(page.pagination.total).toBe(2);
    const latest = await ownClient.events.list({ sort: '-scheduled_at', limit: 1 });
    expect(latest.data[0]?.id).toBe(created[0]?.id);
  });

  it('creates once when the answer to a create is lost and the SDK retries it', async () => {
    const own = await app.createTeam();
    let lost = 0;
    // The first create reaches the service and is handled; its answer is then lost on the way back.
    const losingFetch: typeof fetch = async (input, init) => {
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      const response = await fetch(input, init);
      if (method === 'POST' && lost === 0) {
        lost += 1;
        await response.arrayBuffer();
        throw new TypeError('fetch failed');
      }
      return response;
    };
    const ownClient = createClient({
      baseUrl: app.url,
      apiKey: own.key,
      fetch: losingFetch,
      retry: { limit: 2, baseDelayMs: 10 },
    });
    const created = await ownClient.events.create(eventInput());
    expect(lost).toBe(1);
    const all = await ownClient.events.list();
    expect(all.data.map((event) => event.id)).toEqual([created.id]);
  });

  it('maps the same idempotency key with another body to IDEMPOTENCY_KEY_MISMATCH', async () => {
    await client.events.create(eventInput({ payload: 1 }), { idempotencyKey: 'sdk-mismatch' });
    const error = await rejection(
      client.events.create(eventInput({ payload: 2 }), { idempotencyKey: 'sdk-mismatch' }),
    );
    expect(error).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_MISMATCH' });
  });

  it('creates a batch, replays a finished event and names a bad item of a batch', async () => {
    const created = await client.events.createMany([eventInput({ payload: 1 }), eventInput({ payload: 2 })]);
    expect(created.map((event) => event.payload)).toEqual([1, 2]);
    const error = await rejection(
      client.events.createMany([eventInput(), eventInput({ webhook_url: 'nope' })]),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([{ path: ['events', 1, 'webhook_url'], message: expect.any(String) }]);

    const finished = await makeEvent(app.orm.em.fork(), team.teamId, { status: 'failed' });
    const replay = await client.events.replay(finished.id);
    expect(replay).toMatchObject({ replay_of: finished.id, status: 'pending', cron_id: null });
    const refused = await rejection(client.events.replay(created[0]?.id ?? ''));
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', details: { currentStatus: 'pending' } });
  });

  it('patches a cron partially and runs it now', async () => {
    const own = await app.createTeam();
    const ownClient = createClient({ baseUrl: app.url, apiKey: own.key, retry: 0 });
    const cron = await ownClient.crons.create({
      webhook_url: 'https://example.com/hooks/nightly',
      cron_expression: '0 3 * * *',
      method: 'PUT',
    });
    const paused = await ownClient.crons.patch(cron.id, { is_active: false });
    expect(paused).toMatchObject({ is_active: false, method: 'PUT', cron_expression: '0 3 * * *' });
    const run = await ownClient.crons.trigger(cron.id);
    expect(run).toMatchObject({ cron_id: cron.id, method: 'PUT', status: 'pending' });
    const invalid = await rejection(ownClient.crons.patch(cron.id, { cron_expression: '61 * * * *' }));
    expect(invalid.details).toEqual([{ path: ['cron_expression'], message: expect.any(String) }]);
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

  it('ends listAll cleanly, without retrying, when deletions leave its next page past the end', async () => {
    const other = await app.createTeam('shrinking');
    const listRequests: string[] = [];
    // ky hands its fetch a Request.
    const counting: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (method === 'GET' && url.pathname === '/api/v1/events') listRequests.push(url.search);
      return fetch(input, init);
    };
    const pages = createClient({
      baseUrl: app.url,
      apiKey: other.key,
      retry: { limit: 3, baseDelayMs: 1 },
      fetch: counting,
    });
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push((await pages.events.create(eventInput())).id);

    const listed: string[] = [];
    for await (const event of pages.events.listAll({ limit: 2 })) {
      listed.push(event.id);
      // Once the first page is read, all but one event go: page 1 is then past the end.
      if (listed.length === 2) for (const id of ids.slice(1)) await pages.events.delete(id);
    }

    expect(listed).toEqual([...ids].reverse().slice(0, 2));
    expect(listRequests).toEqual(['?limit=2&page=0', '?limit=2&page=1']);
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
