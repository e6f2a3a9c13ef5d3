import { randomUUID } from 'node:crypto';
import type { EventStatus } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { cronBody, makeCron, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const fullBody = () =>
  cronBody({
    webhook_url: 'https://hooks.example.com/nightly?source=test',
    cron_expression: '0 3 * * MON-FRI',
    method: 'PATCH',
    timezone: 'Europe/Paris',
    headers: { 'X-Token': 'abc', 'Content-Type': 'application/json' },
    payload: { job: 'nightly', tags: ['a', 'b'], nested: { n: 1.5, ok: true, none: null } },
    retry_config: { maxRetries: 5, backoffMs: 250, backoffType: 'linear' },
    is_active: false,
  });

async function createCron(team: TestTeam, body: object = cronBody()) {
  return expectBody(await app.request('POST', '/api/v1/crons', { key: team.key, body }), 201, bodies.cron)
    .data;
}

async function eventIds(teamId: string, cronId: string): Promise<string[]> {
  const rows = await app.sql<{ id: string }>(
    'select id from events where team_id = $1 and cron_id = $2 order by id',
    [teamId, cronId],
  );
  return rows.map((row) => row.id);
}

describe('POST /api/v1/crons', () => {
  it('returns 201 with the defaults when only the required fields are given', async () => {
    const team = await app.createTeam();
    const before = Date.now();
    const cron = await createCron(team, cronBody({ cron_expression: '*/5 * * * *' }));
    expect(cron).toMatchObject({
      cron_expression: '*/5 * * * *',
      webhook_url: 'https://example.com/cron',
      method: 'POST',
      timezone: null,
      headers: null,
      payload: null,
      retry_config: null,
      is_active: true,
      team_id: team.teamId,
    });
    expect(cron.created_at).toBe(cron.updated_at);
    expect(Date.parse(cron.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('returns every field as given', async () => {
    const team = await app.createTeam();
    const body = fullBody();
    const cron = await createCron(team, body);
    const { retry_config, ...rest } = body;
    expect(cron).toMatchObject(rest);
    expect(cron.retry_config).toEqual(retry_config);
  });

  it('returns the same cron on GET', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, fullBody());
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(expectBody(read, 200, bodies.cron).data).toEqual(cron);
  });

  it('defaults backoffType to exponential and always returns all three retry fields', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, cronBody({ retry_config: { maxRetries: 3, backoffMs: 1000 } }));
    expect(cron.retry_config).toEqual({ maxRetries: 3, backoffMs: 1000, backoffType: 'exponential' });
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(read.body.data.retry_config).toEqual(cron.retry_config);
  });

  it.each([
    [1, 100],
    [10, 5000],
  ])('accepts retry_config at its bounds (maxRetries %i, backoffMs %i)', async (maxRetries, backoffMs) => {
    const team = await app.createTeam();
    const cron = await createCron(team, cronBody({ retry_config: { maxRetries, backoffMs } }));
    expect(cron.retry_config).toEqual({ maxRetries, backoffMs, backoffType: 'exponential' });
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const)(
    'accepts method %s',
    async (method) => {
      const team = await app.createTeam();
      expect((await createCron(team, cronBody({ method }))).method).toBe(method);
    },
  );

  it.each<[string, unknown]>([
    ['an object', { a: 1, b: [true, null] }],
    ['an array', [1, 'two', { three: 3 }]],
    ['a string', 'hello'],
    ['a string that looks like a number', '123'],
    ['a string that looks like JSON', '{"a":1}'],
    ['a number', 42.5],
    ['zero', 0],
    ['true', true],
    ['false', false],
    ['null', null],
    ['an empty object', {}],
    ['an empty array', []],
  ])('stores a payload that is %s', async (_, payload) => {
    const team = await app.createTeam();
    const cron = await createCron(team, cronBody({ payload: payload as never }));
    expect(cron.payload).toEqual(payload);
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(read.body.data.payload).toEqual(payload);
  });

  it.each([
    '* * * * *',
    '*/15 * * * *',
    '0 */5 * * * *',
    '0 9 * * MON-FRI',
    '0 0 1 JAN,JUL *',
    '0 0 L * *',
    '0 12 * * 1#2',
    '5,10,15 1-3 * * 0',
    '@yearly',
    '@annually',
    '@monthly',
    '@weekly',
    '@daily',
    '@midnight',
    '@hourly',
  ])('accepts the cron expression %j', async (cron_expression) => {
    const team = await app.createTeam();
    expect((await createCron(team, cronBody({ cron_expression }))).cron_expression).toBe(cron_expression);
  });

  it('stores the cron expression without surrounding whitespace', async () => {
    const team = await app.createTeam();
    expect((await createCron(team, cronBody({ cron_expression: '  0 * * * *  ' }))).cron_expression).toBe(
      '0 * * * *',
    );
  });

  it.each(['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+1', null])(
    'accepts the timezone %j',
    async (timezone) => {
      const team = await app.createTeam();
      expect((await createCron(team, cronBody({ timezone }))).timezone).toBe(timezone);
    },
  );

  it.each([
    ['europe/paris', 'Europe/Paris'],
    ['utc', 'UTC'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
  ])('stores the timezone %j in its canonical spelling %j', async (given, stored) => {
    const team = await app.createTeam();
    expect((await createCron(team, cronBody({ timezone: given }))).timezone).toBe(stored);
  });

  it('accepts null for every optional field', async () => {
    const team = await app.createTeam();
    const cron = await createCron(
      team,
      cronBody({ timezone: null, headers: null, payload: null, retry_config: null }),
    );
    expect(cron).toMatchObject({ timezone: null, headers: null, payload: null, retry_config: null });
  });
});

describe('GET /api/v1/crons/:id', () => {
  it('returns 404 NOT_FOUND for an unknown id', async () => {
    const team = await app.createTeam();
    const error = expectError(
      await app.request('GET', `/api/v1/crons/${randomUUID()}`, { key: team.key }),
      404,
      'NOT_FOUND',
    );
    expect(error.message).toBe('Cron not found');
  });
});

describe('PUT /api/v1/crons/:id', () => {
  it('replaces every field and keeps id, team and created_at', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team);
    const body = fullBody();
    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, { key: team.key, body });
    const updated = expectBody(response, 200, bodies.cron).data;
    const { retry_config, ...rest } = body;
    expect(updated).toMatchObject({
      ...rest,
      id: cron.id,
      team_id: team.teamId,
      created_at: cron.created_at,
    });
    expect(updated.retry_config).toEqual(retry_config);
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(cron.updated_at));
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(read.body.data).toEqual(updated);
  });

  it('resets every omitted optional field to its default', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, fullBody());
    const body = { webhook_url: 'https://example.com/other', cron_expression: '0 0 * * *' };
    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, { key: team.key, body });
    expect(expectBody(response, 200, bodies.cron).data).toMatchObject({
      ...body,
      method: 'POST',
      timezone: null,
      headers: null,
      payload: null,
      retry_config: null,
      is_active: true,
    });
  });

  it('returns 404 NOT_FOUND for an unknown id', async () => {
    const team = await app.createTeam();
    const response = await app.request('PUT', `/api/v1/crons/${randomUUID()}`, {
      key: team.key,
      body: cronBody(),
    });
    expectError(response, 404, 'NOT_FOUND');
  });

  it("deletes the cron's pending events but keeps its other events and other crons' events", async () => {
    const team = await app.createTeam();
    const em = app.orm.em.fork();
    const cron = await makeCron(em, team.teamId);
    const other = await makeCron(em, team.teamId);
    const statuses: EventStatus[] = ['pending', 'processing', 'success', 'failed'];
    const own = await Promise.all(
      statuses.map((status) => makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id, status })),
    );
    const pendingOfOther = await makeEvent(em, team.teamId, { cronId: other.id });
    const manual = await makeEvent(em, team.teamId);

    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: cronBody({ cron_expression: '0 * * * *' }),
    });
    expectBody(response, 200, bodies.cron);

    const kept = own.filter((event) => event.status !== 'pending').map((event) => event.id);
    const after = await app.sql<{ id: string; status: string; scheduledAt: Date }>(
      'select id, status, scheduled_at as "scheduledAt" from events where team_id = $1 and cron_id = $2',
      [team.teamId, cron.id],
    );
    expect(
      after
        .filter((event) => event.status !== 'pending')
        .map((event) => event.id)
        .sort(),
    ).toEqual(kept.sort());
    // The old pending event is gone; the new definition's next occurrence takes its place.
    const fresh = after.filter((event) => event.status === 'pending');
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.id).not.toBe(own[0]!.id);
    expect(fresh[0]!.scheduledAt.getUTCMinutes()).toBe(0);
    expect(fresh[0]!.scheduledAt.getTime()).toBeGreaterThan(Date.now());
    expect(await eventIds(team.teamId, other.id)).toEqual([pendingOfOther.id]);
    const manualRead = await app.request('GET', `/api/v1/events/${manual.id}`, { key: team.key });
    expect(manualRead.status).toBe(200);
  });

  it('keeps its event in flight (pending in its row, leased in the queue) when replaced', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const inFlight = await makeEvent(app.orm.em.fork(), team.teamId, {
      cronId: cron.id,
      status: 'processing',
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: cronBody({ cron_expression: '0 * * * *' }),
    });
    expectBody(response, 200, bodies.cron);
    const read = await app.request('GET', `/api/v1/events/${inFlight.id}`, { key: team.key });
    expect(expectBody(read, 200, bodies.event).data.status).toBe('processing');
  });

  it('deletes its pending events when is_active becomes false', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id });
    await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id });
    const done = await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id, status: 'success' });

    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: cronBody({ is_active: false }),
    });
    expect(expectBody(response, 200, bodies.cron).data.is_active).toBe(false);
    expect(await eventIds(team.teamId, cron.id)).toEqual([done.id]);
  });

  it('leaves the events alone when the cron is refused', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const pending = await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id });
    const response = await app.request('PUT', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: cronBody({ cron_expression: '61 * * * *' }),
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(await eventIds(team.teamId, cron.id)).toEqual([pending.id]);
  });
});

describe('DELETE /api/v1/crons/:id', () => {
  it('answers { data: { success: true } } and the cron is gone', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team);
    const response = await app.request('DELETE', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(expectBody(response, 200, bodies.deleted)).toEqual({ data: { success: true } });

    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', cronBody()],
      ['DELETE', undefined],
    ] as const) {
      const again = await app.request(method, `/api/v1/crons/${cron.id}`, { key: team.key, body });
      expectError(again, 404, 'NOT_FOUND');
    }
    const list = await app.request('GET', '/api/v1/crons', { key: team.key });
    expect(list.body.data).toEqual([]);
  });

  it('deletes all its events in every state and leaves other crons alone', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const other = await makeCron(app.orm.em.fork(), team.teamId);
    const statuses: EventStatus[] = ['pending', 'processing', 'success', 'failed'];
    const own = await Promise.all(
      statuses.map((status) => makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id, status })),
    );
    const failed = own[3]!;
    await makeEvent(app.orm.em.fork(), team.teamId, {
      cronId: cron.id,
      retryOf: failed.id,
      attempt: 1,
      status: 'failed',
    });
    const othersEvents = await Promise.all(
      statuses.map((status) => makeEvent(app.orm.em.fork(), team.teamId, { cronId: other.id, status })),
    );

    const response = await app.request('DELETE', `/api/v1/crons/${cron.id}`, { key: team.key });
    expectBody(response, 200, bodies.deleted);

    expect(await eventIds(team.teamId, cron.id)).toEqual([]);
    for (const event of own) {
      expectError(
        await app.request('GET', `/api/v1/events/${event.id}`, { key: team.key }),
        404,
        'NOT_FOUND',
      );
    }
    expect(await eventIds(team.teamId, other.id)).toEqual(othersEvents.map((event) => event.id).sort());
    const otherRead = await app.request('GET', `/api/v1/crons/${other.id}`, { key: team.key });
    expect(otherRead.status).toBe(200);
  });
});
