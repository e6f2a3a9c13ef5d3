import { randomUUID } from 'node:crypto';
import type { EventStatus } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { eventBody, inFuture, makeCron, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const fullBody = () =>
  eventBody({
    webhook_url: 'https://hooks.example.com/once?x=1',
    scheduled_at: inFuture(2 * 3_600_000),
    method: 'PUT',
    headers: { 'X-Token': 'abc' },
    payload: { order: 42, items: [{ sku: 'a' }], note: null },
    retry_config: { maxRetries: 2, backoffMs: 100, backoffType: 'linear' },
  });

async function createEvent(team: TestTeam, body: object = eventBody()) {
  return expectBody(await app.request('POST', '/api/v1/events', { key: team.key, body }), 201, bodies.event)
    .data;
}

async function exists(id: string): Promise<boolean> {
  return (await app.sql('select 1 from events where id = $1', [id])).length === 1;
}

describe('POST /api/v1/events', () => {
  it('returns 201 with a pending manual event and the defaults', async () => {
    const team = await app.createTeam();
    const body = eventBody();
    const event = await createEvent(team, body);
    expect(event).toMatchObject({
      cron_id: null,
      retry_of: null,
      scheduled_at: body.scheduled_at,
      executed_at: null,
      status: 'pending',
      webhook_url: body.webhook_url,
      method: 'POST',
      headers: null,
      payload: null,
      retry_config: null,
      response_status: null,
      response_headers: null,
      response_body: null,
      response_duration: null,
      response_error: null,
      team_id: team.teamId,
    });
    expect(event.created_at).toBe(event.updated_at);
  });

  it('returns every field as given, and the same event on GET', async () => {
    const team = await app.createTeam();
    const body = fullBody();
    const event = await createEvent(team, body);
    const { retry_config, ...rest } = body;
    expect(event).toMatchObject(rest);
    expect(event.retry_config).toEqual(retry_config);
    const read = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
    expect(expectBody(read, 200, bodies.event).data).toEqual(event);
  });

  it('normalizes a scheduled_at with an offset to UTC', async () => {
    const team = await app.createTeam();
    const event = await createEvent(team, eventBody({ scheduled_at: '2099-06-01T12:00:00+02:00' }));
    expect(event.scheduled_at).toBe('2099-06-01T10:00:00.000Z');
  });

  it('defaults backoffType to exponential and always returns all three retry fields', async () => {
    const team = await app.createTeam();
    const event = await createEvent(team, eventBody({ retry_config: { maxRetries: 10, backoffMs: 5000 } }));
    expect(event.retry_config).toEqual({ maxRetries: 10, backoffMs: 5000, backoffType: 'exponential' });
  });

  it.each<[string, unknown]>([
    ['an object', { a: { b: [1, 2] } }],
    ['an array', [{ a: 1 }, 'b']],
    ['a string', 'hello'],
    ['a string that looks like a boolean', 'true'],
    ['a string that looks like null', 'null'],
    ['a number', -7],
    ['true', true],
    ['false', false],
    ['null', null],
  ])('stores a payload that is %s', async (_, payload) => {
    const team = await app.createTeam();
    const event = await createEvent(team, eventBody({ payload: payload as never }));
    expect(event.payload).toEqual(payload);
    const read = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
    expect(read.body.data.payload).toEqual(payload);
  });
});

describe('GET /api/v1/events/:id', () => {
  it('returns 404 NOT_FOUND for an unknown id', async () => {
    const team = await app.createTeam();
    const response = await app.request('GET', `/api/v1/events/${randomUUID()}`, { key: team.key });
    expect(expectError(response, 404, 'NOT_FOUND').message).toBe('Event not found');
  });

  it('returns an executed event with its recorded outcome', async () => {
    const team = await app.createTeam();
    const executedAt = new Date();
    const event = await makeEvent(app.orm.em.fork(), team.teamId, {
      status: 'failed',
      executedAt,
      responseStatus: 503,
      responseHeaders: { 'content-type': 'text/plain' },
      responseBody: 'unavailable',
      responseDuration: 12,
      responseError: 'HTTP 503',
    });
    const read = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
    expect(expectBody(read, 200, bodies.event).data).toMatchObject({
      status: 'failed',
      executed_at: executedAt.toISOString(),
      response_status: 503,
      response_headers: { 'content-type': 'text/plain' },
      response_body: 'unavailable',
      response_duration: 12,
      response_error: 'HTTP 503',
    });
  });
});

describe('PUT /api/v1/events/:id', () => {
  it('replaces every field of a pending event and keeps id, status and created_at', async () => {
    const team = await app.createTeam();
    const event = await createEvent(team);
    const body = fullBody();
    const response = await app.request('PUT', `/api/v1/events/${event.id}`, { key: team.key, body });
    const updated = expectBody(response, 200, bodies.event).data;
    const { retry_config, ...rest } = body;
    expect(updated).toMatchObject({
      ...rest,
      id: event.id,
      status: 'pending',
      created_at: event.created_at,
      team_id: team.teamId,
    });
    expect(updated.retry_config).toEqual(retry_config);
    const read = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
    expect(read.body.data).toEqual(updated);
  });

  it('resets every omitted optional field to its default', async () => {
    const team = await app.createTeam();
    const event = await createEvent(team, fullBody());
    const body = eventBody({ webhook_url: 'https://example.com/other' });
    const response = await app.request('PUT', `/api/v1/events/${event.id}`, { key: team.key, body });
    expect(expectBody(response, 200, bodies.event).data).toMatchObject({
      ...body,
      method: 'POST',
      headers: null,
      payload: null,
      retry_config: null,
    });
  });

  it.each<EventStatus>(['processing', 'success', 'failed'])(
    'returns 400 BAD_REQUEST with details.currentStatus when the event is %s',
    async (status) => {
      const team = await app.createTeam();
      const event = await makeEvent(app.orm.em.fork(), team.teamId, { status });
      const before = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
      const response = await app.request('PUT', `/api/v1/events/${event.id}`, {
        key: team.key,
        body: eventBody(),
      });
      const error = expectError(response, 400, 'BAD_REQUEST');
      expect(error.details).toEqual({ currentStatus: status });
      const after = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
      expect(after.body).toEqual(before.body);
    },
  );

  it('returns 404 NOT_FOUND for an unknown id', async () => {
    const team = await app.createTeam();
    const response = await app.request('PUT', `/api/v1/events/${randomUUID()}`, {
      key: team.key,
      body: eventBody(),
    });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('returns 400 VALIDATION_ERROR when the new scheduled_at is in the past', async () => {
    const team = await app.createTeam();
    const event = await createEvent(team);
    const response = await app.request('PUT', `/api/v1/events/${event.id}`, {
      key: team.key,
      body: eventBody({ scheduled_at: new Date(Date.now() - 1000).toISOString() }),
    });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ path: ['scheduled_at'], message: expect.stringMatching(/future/) }]);
  });
});

describe('DELETE /api/v1/events/:id', () => {
  it.each<EventStatus>(['pending', 'success', 'failed'])(
    'deletes a manual %s event and its retry attempts, and answers { data: { success: true } }',
    async (status) => {
      const team = await app.createTeam();
      const em = app.orm.em.fork();
      const original = await makeEvent(em, team.teamId, { status });
      const attempts = [
        await makeEvent(em, team.teamId, { retryOf: original.id, attempt: 1, status: 'failed' }),
        await makeEvent(em, team.teamId, { retryOf: original.id, attempt: 2, status: 'pending' }),
      ];
      const bystander = await makeEvent(em, team.teamId, { status: 'failed' });
      const bystanderRetry = await makeEvent(em, team.teamId, { retryOf: bystander.id, attempt: 1 });

      const response = await app.request('DELETE', `/api/v1/events/${original.id}`, { key: team.key });
      expect(expectBody(response, 200, bodies.deleted)).toEqual({ data: { success: true } });

      for (const id of [original.id, ...attempts.map((a) => a.id)]) {
        expect(await exists(id)).toBe(false);
      }
      expect(await exists(bystander.id)).toBe(true);
      expect(await exists(bystanderRetry.id)).toBe(true);
      const again = await app.request('GET', `/api/v1/events/${original.id}`, { key: team.key });
      expectError(again, 404, 'NOT_FOUND');
    },
  );

  it('returns 400 BAD_REQUEST with details.currentStatus when a manual event is processing', async () => {
    const team = await app.createTeam();
    const event = await makeEvent(app.orm.em.fork(), team.teamId, { status: 'processing' });
    const response = await app.request('DELETE', `/api/v1/events/${event.id}`, { key: team.key });
    const error = expectError(response, 400, 'BAD_REQUEST');
    expect(error.details).toEqual({ currentStatus: 'processing' });
    expect(await exists(event.id)).toBe(true);
  });

  it('shows an event in flight (leased in the queue) as processing, and neither updates nor deletes it', async () => {
    const team = await app.createTeam();
    const event = await makeEvent(app.orm.em.fork(), team.teamId, {
      status: 'processing',
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    const waiting = await makeEvent(app.orm.em.fork(), team.teamId, { status: 'pending' });
    const shown = await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key });
    expect(expectBody(shown, 200, bodies.event).data.status).toBe('processing');
    const listed = async (status: EventStatus) => {
      const page = await app.request('GET', `/api/v1/events?status=${status}`, { key: team.key });
      const body = expectBody(page, 200, bodies.eventPage);
      return { shown: body.data.map((e) => ({ id: e.id, status: e.status })), total: body.pagination.total };
    };
    expect(await listed('processing')).toEqual({ shown: [{ id: event.id, status: 'processing' }], total: 1 });
    expect(await listed('pending')).toEqual({ shown: [{ id: waiting.id, status: 'pending' }], total: 1 });

    const put = await app.request('PUT', `/api/v1/events/${event.id}`, { key: team.key, body: eventBody() });
    expect(expectError(put, 400, 'BAD_REQUEST').details).toEqual({ currentStatus: 'processing' });
    const deleted = await app.request('DELETE', `/api/v1/events/${event.id}`, { key: team.key });
    expect(expectError(deleted, 400, 'BAD_REQUEST').details).toEqual({ currentStatus: 'processing' });
    expect(await exists(event.id)).toBe(true);
  });

  it.each<EventStatus>(['pending', 'processing', 'success', 'failed'])(
    'returns 400 BAD_REQUEST when the event was made by a cron and is %s',
    async (status) => {
      const team = await app.createTeam();
      const cron = await makeCron(app.orm.em.fork(), team.teamId);
      const event = await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id, status });
      const response = await app.request('DELETE', `/api/v1/events/${event.id}`, { key: team.key });
      expect(expectError(response, 400, 'BAD_REQUEST').message).toMatch(/cron/);
      expect(await exists(event.id)).toBe(true);
    },
  );

  it.each<EventStatus>(['pending', 'failed'])(
    'returns 400 BAD_REQUEST when the event is a %s retry attempt',
    async (status) => {
      const team = await app.createTeam();
      const original = await makeEvent(app.orm.em.fork(), team.teamId, { status: 'processing' });
      const attempt = await makeEvent(app.orm.em.fork(), team.teamId, {
        retryOf: original.id,
        attempt: 1,
        status,
      });
      const response = await app.request('DELETE', `/api/v1/events/${attempt.id}`, { key: team.key });
      expect(expectError(response, 400, 'BAD_REQUEST').message).toMatch(/[Rr]etry/);
      expect(await exists(attempt.id)).toBe(true);
    },
  );

  it('returns 404 NOT_FOUND for an unknown id', async () => {
    const team = await app.createTeam();
    const response = await app.request('DELETE', `/api/v1/events/${randomUUID()}`, { key: team.key });
    expectError(response, 404, 'NOT_FOUND');
  });
});
