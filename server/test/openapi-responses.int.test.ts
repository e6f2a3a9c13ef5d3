import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSoon } from './due-soon.js';
import { cronBody, eventBody } from './factories.js';
import {
  type ApiResponse,
  type RequestOptions,
  type TestApp,
  type TestTeam,
  startTestApp,
} from './harness.js';
import { compileResponseValidators } from './openapi-document.js';
import pg from 'pg';
import { lockIdOf } from '../src/idempotency/idempotency.rules.js';
import { setTeamLimits } from '../src/limits/team-limits.service.js';
import { REPLAY_MANY, expectBulkReplayAnswers } from './openapi-bulk-replay.js';
import { type Receiver, eventually, startReceiver } from './receiver.js';

// Every response the real service gives over real HTTP, checked against the committed openapi.json
// with Ajv 8 in strict mode: what a client generated from the document will be handed.
const validators = compileResponseValidators();
const seen = new Set<string>();

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.reply('/fails', { status: 503, body: 'down', headers: { 'retry-after': '1' } });
  app = await startTestApp({ bodyLimitBytes: 64 * 1024, scheduler: { webhookTimeoutMs: 1000 } });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

/** Sends a request to a documented operation and fails the test when the answer is not as documented. */
async function call(
  method: string,
  template: string,
  options: RequestOptions & { id?: string; query?: string } = {},
): Promise<ApiResponse> {
  const param = template.includes('{origin}')
    ? encodeURIComponent(options.id ?? 'https://never.example')
    : (options.id ?? randomUUID());
  const path = template.replace(/\{(id|origin)\}/, param) + (options.query ?? '');
  const response = await app.request(method, path, { key: team.key, ...options });
  const { operationId, errors } = validators.check(method, template, response);
  expect(errors, `${method} ${path} → ${response.status} ${response.text.slice(0, 300)}`).toEqual([]);
  seen.add(`${operationId} ${response.status}`);
  return response;
}

const EVENTS = '/api/v1/events';
const EVENT = '/api/v1/events/{id}';
const CRONS = '/api/v1/crons';
const CRON = '/api/v1/crons/{id}';
const DESTINATIONS = '/api/v1/destinations';
const DESTINATION = '/api/v1/destinations/{origin}';

/** An event created through `call` with `scheduled_at` soon (see dueSoon). */
const createdSoon = (body: Record<string, unknown>) =>
  dueSoon(async (at) => {
    const response = await call('POST', EVENTS, { body: { ...body, scheduled_at: at } });
    expect(response.status, response.text).toBe(201);
    return response;
  }, 300);

async function settled(id: string) {
  return eventually(
    async () => (await call('GET', EVENT, { id })).body.data as { status: string },
    (event) => event.status === 'success' || event.status === 'failed',
    15_000,
  );
}

/** 404 for a missing id, 413 for a body over the limit, 401 without a key, on a resource's five routes. */
async function expectCommonRefusals(collection: string, item: string, validBody: () => object) {
  const id = (await call('POST', collection, { body: validBody() })).body.data.id as string;
  expect((await call('GET', item)).status).toBe(404);
  expect((await call('PUT', item, { body: validBody() })).status).toBe(404);
  expect((await call('DELETE', item)).status).toBe(404);
  const big = { ...validBody(), payload: 'x'.repeat(70 * 1024) };
  expect((await call('POST', collection, { body: big })).status).toBe(413);
  expect((await call('PUT', item, { id, body: big })).status).toBe(413);
  expect((await call('DELETE', item, { id, body: big })).status).toBe(413);
  for (const method of ['GET', 'POST'] as const) {
    const body = method === 'POST' ? validBody() : undefined;
    expect((await call(method, collection, { key: null, body })).status).toBe(401);
  }
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const body = method === 'PUT' ? validBody() : undefined;
    expect((await call(method, item, { id, key: null, body })).status).toBe(401);
  }
}

describe('responses of the running service against docs/openapi.json', () => {
  it('match the document for events in every state: pending, succeeded, failed, retried', async () => {
    const full = {
      method: 'PUT' as const,
      headers: { 'x-trace': 'abc' },
      payload: { nested: [1, 'two', null, { three: true }] },
    };
    const ok = await createdSoon({ ...full, webhook_url: `${receiver.url}/ok` });
    const failing = await createdSoon({
      webhook_url: `${receiver.url}/fails`,
      retry_config: { maxRetries: 1, backoffMs: 100, backoffType: 'linear' },
    });
    // Nothing listens on port 9 of 127.0.0.1: no response at all, only response_error.
    const unreachable = await createdSoon({ webhook_url: 'http://127.0.0.1:9/', payload: 'text' });
    expect(ok.status).toBe(201);
    for (const created of [ok, failing, unreachable]) await settled(created.body.data.id);
    await eventually(
      async () => (await call('GET', EVENTS, { query: '?status=failed&limit=1000' })).body.data as unknown[],
      (failed) => failed.length >= 3,
      15_000,
    );
    const all = await call('GET', EVENTS, { query: '?limit=1000' });
    expect(all.body.data.some((event: { retry_of: string | null }) => event.retry_of !== null)).toBe(true);
    await call('GET', EVENTS, { query: '?status=success&page=0&limit=1' });
  });

  it('match the document for the other event routes and their refusals', async () => {
    const created = await call('POST', EVENTS, {
      body: eventBody({ retry_config: { maxRetries: 2, backoffMs: 200 } }),
    });
    const id = created.body.data.id as string;
    expect((await call('PUT', EVENT, { id, body: eventBody({ method: 'DELETE' }) })).status).toBe(200);
    expect(
      (await call('POST', EVENTS, { body: { webhook_url: 'not a url', scheduled_at: 'x' } })).status,
    ).toBe(400);
    expect((await call('PUT', EVENT, { id, body: { webhook_url: 'https://example.com' } })).status).toBe(400);
    expect((await call('GET', EVENTS, { query: '?limit=0' })).status).toBe(400);
    expect((await call('GET', EVENT, { id: 'not-a-uuid' })).status).toBe(400);
    expect((await call('DELETE', EVENT, { id: 'not-a-uuid' })).status).toBe(400);
    expect((await call('DELETE', EVENT, { id })).status).toBe(200);
    await expectCommonRefusals(EVENTS, EVENT, eventBody);
  });

  it('match the document for every cron route, their refusals and the events a cron makes', async () => {
    const created = await call('POST', CRONS, {
      body: cronBody({
        timezone: 'Europe/Paris',
        headers: { a: 'b' },
        payload: [1],
        retry_config: { maxRetries: 1, backoffMs: 100 },
      }),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await call('POST', CRONS, { body: cronBody({ is_active: false }) });
    await call('GET', CRONS, { query: '?is_active=false' });
    await call('GET', CRON, { id });
    expect((await call('PUT', CRON, { id, body: cronBody({ cron_expression: '@hourly' }) })).status).toBe(
      200,
    );
    const made = await call('GET', EVENTS, { query: `?cron_id=${id}` });
    const cronEvent = (made.body.data as { id: string }[])[0];
    expect(cronEvent).toBeDefined();
    expect((await call('DELETE', EVENT, { id: cronEvent?.id ?? '' })).status).toBe(400);
    expect((await call('POST', CRONS, { body: cronBody({ cron_expression: '61 * * * *' }) })).status).toBe(
      400,
    );
    expect((await call('PUT', CRON, { id, body: {} })).status).toBe(400);
    expect((await call('GET', CRONS, { query: '?is_active=maybe' })).status).toBe(400);
    expect((await call('GET', CRON, { id: 'x' })).status).toBe(400);
    expect((await call('DELETE', CRON, { id: 'x' })).status).toBe(400);
    await expectCommonRefusals(CRONS, CRON, cronBody);
    expect((await call('DELETE', CRON, { id })).status).toBe(200);
  });

  it('match the document for quota refusals (403) and rate limiting (429) on every route', async () => {
    const em = app.orm.em.fork();
    const idle = await call('POST', CRONS, { body: cronBody({ is_active: false }) });
    await setTeamLimits(em, team.teamId, { max_active_crons: 0, max_pending_events: 0 }, new Date());
    expect((await call('POST', CRONS, { body: cronBody() })).status).toBe(403);
    const id = idle.body.data.id as string;
    expect((await call('PUT', CRON, { id, body: cronBody({ is_active: true }) })).status).toBe(403);
    expect((await call('POST', EVENTS, { body: eventBody() })).status).toBe(403);

    await setTeamLimits(em, team.teamId, { requests_per_second: 1, request_burst: 1 }, new Date());
    const routes: [string, string, object | undefined][] = [
      ['GET', EVENTS, undefined],
      ['POST', EVENTS, eventBody()],
      ['GET', EVENT, undefined],
      ['PUT', EVENT, eventBody()],
      ['DELETE', EVENT, undefined],
      ['GET', CRONS, undefined],
      ['POST', CRONS, cronBody()],
      ['GET', CRON, undefined],
      ['PUT', CRON, cronBody()],
      ['DELETE', CRON, undefined],
    ];
    for (const [method, template, body] of routes) {
      let status = 0;
      for (let tries = 0; tries < 5 && status !== 429; tries++) {
        status = (await call(method, template, body ? { body } : {})).status;
      }
      expect(status, `${method} ${template}`).toBe(429);
    }
    await setTeamLimits(
      em,
      team.teamId,
      { max_active_crons: null, max_pending_events: null, requests_per_second: null, request_burst: null },
      new Date(),
    );
  });

  it('match the document for idempotent creates, batches, replays, triggers and cron patches', async () => {
    const big = { payload: 'x'.repeat(70 * 1024) };
    // Idempotency-Key: another body with a used key → 422; a key held by a request in flight → 409.
    for (const [collection, body] of [
      [EVENTS, eventBody],
      [CRONS, cronBody],
    ] as const) {
      const key = randomUUID();
      const headers = { 'idempotency-key': key };
      expect((await call('POST', collection, { body: body(), headers })).status).toBe(201);
      expect((await call('POST', collection, { body: body({ method: 'PUT' }), headers })).status).toBe(422);
      const held = randomUUID();
      const holder = new pg.Client(app.db.connection);
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1::bigint)', [lockIdOf(team.teamId, held)]);
        const response = await call('POST', collection, {
          body: body(),
          headers: { 'idempotency-key': held },
        });
        expect(response.status).toBe(409);
      } finally {
        await holder.end();
      }
    }

    const BATCH = `${EVENTS}/batch`;
    expect((await call('POST', BATCH, { body: { events: [eventBody(), eventBody()] } })).status).toBe(201);
    expect(
      (await call('POST', BATCH, { body: { events: [eventBody(), { webhook_url: 'x' }] } })).status,
    ).toBe(400);
    expect((await call('POST', BATCH, { body: { events: [{ ...eventBody(), ...big }] } })).status).toBe(413);
    expect((await call('POST', BATCH, { key: null, body: { events: [eventBody()] } })).status).toBe(401);
    const batchKey = { 'idempotency-key': randomUUID() };
    await call('POST', BATCH, { body: { events: [eventBody()] }, headers: batchKey });
    expect(
      (await call('POST', BATCH, { body: { events: [eventBody(), eventBody()] }, headers: batchKey })).status,
    ).toBe(422);
    const heldBatch = randomUUID();
    const holder = new pg.Client(app.db.connection);
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1::bigint)', [lockIdOf(team.teamId, heldBatch)]);
      const response = await call('POST', BATCH, {
        body: { events: [eventBody()] },
        headers: { 'idempotency-key': heldBatch },
      });
      expect(response.status).toBe(409);
    } finally {
      await holder.end();
    }

    const REPLAY = `${EVENT}/replay`;
    const done = await createdSoon({ webhook_url: `${receiver.url}/ok` });
    await settled(done.body.data.id);
    expect((await call('POST', REPLAY, { id: done.body.data.id })).status).toBe(201);
    const pending = await call('POST', EVENTS, { body: eventBody() });
    expect((await call('POST', REPLAY, { id: pending.body.data.id })).status).toBe(400);
    expect((await call('POST', REPLAY)).status).toBe(404);
    expect((await call('POST', REPLAY, { id: done.body.data.id, key: null })).status).toBe(401);
    expect((await call('POST', REPLAY, { id: done.body.data.id, body: big })).status).toBe(413);
    await expectBulkReplayAnswers(call, app, team);

    const cron = await call('POST', CRONS, { body: cronBody({ is_active: false }) });
    const cronId = cron.body.data.id as string;
    const TRIGGER = `${CRON}/trigger`;
    expect((await call('POST', TRIGGER, { id: cronId })).status).toBe(201);
    expect((await call('POST', TRIGGER, { id: 'x' })).status).toBe(400);
    expect((await call('POST', TRIGGER)).status).toBe(404);
    expect((await call('POST', TRIGGER, { id: cronId, key: null })).status).toBe(401);
    expect((await call('POST', TRIGGER, { id: cronId, body: big })).status).toBe(413);

    expect((await call('PATCH', CRON, { id: cronId, body: { method: 'PUT' } })).status).toBe(200);
    expect((await call('PATCH', CRON, { id: cronId, body: { cron_expression: '61 * * * *' } })).status).toBe(
      400,
    );
    expect((await call('PATCH', CRON, { body: { method: 'PUT' } })).status).toBe(404);
    expect((await call('PATCH', CRON, { id: cronId, key: null, body: {} })).status).toBe(401);
    expect((await call('PATCH', CRON, { id: cronId, body: big })).status).toBe(413);

    const em = app.orm.em.fork();
    await setTeamLimits(
      em,
      team.teamId,
      { max_active_crons: 0, max_pending_events: 0, max_pending_bytes: 1 },
      new Date(),
    );
    expect((await call('PATCH', CRON, { id: cronId, body: { is_active: true } })).status).toBe(403);
    expect((await call('POST', BATCH, { body: { events: [eventBody()] } })).status).toBe(403);
    expect((await call('POST', TRIGGER, { id: cronId })).status).toBe(403);
    expect((await call('POST', REPLAY, { id: done.body.data.id })).status).toBe(403);
    expect((await call('POST', REPLAY_MANY, { body: { status: 'success' } })).status).toBe(403);
    const larger = eventBody({ payload: { grown: true } });
    expect((await call('PUT', EVENT, { id: pending.body.data.id, body: larger })).status).toBe(403);
    await setTeamLimits(em, team.teamId, { requests_per_second: 1, request_burst: 1 }, new Date());
    const routes: [string, string, object | undefined, string | undefined][] = [
      ['POST', BATCH, { events: [eventBody()] }, undefined],
      ['POST', REPLAY, undefined, done.body.data.id],
      ['POST', REPLAY_MANY, { status: 'success' }, undefined],
      ['POST', TRIGGER, undefined, cronId],
      ['PATCH', CRON, { method: 'GET' }, cronId],
    ];
    for (const [method, template, body, id] of routes) {
      let status = 0;
      for (let tries = 0; tries < 5 && status !== 429; tries++) {
        status = (await call(method, template, { ...(body ? { body } : {}), ...(id ? { id } : {}) })).status;
      }
      expect(status, `${method} ${template}`).toBe(429);
    }
    await setTeamLimits(
      em,
      team.teamId,
      {
        max_active_crons: null,
        max_pending_events: null,
        max_pending_bytes: null,
        requests_per_second: null,
        request_burst: null,
      },
      new Date(),
    );
  });

  it('match the document for the destination routes and their refusals', async () => {
    await call('POST', EVENTS, { body: eventBody({ webhook_url: `${receiver.url}/dest` }) });
    expect((await call('GET', DESTINATIONS)).status).toBe(200);
    expect((await call('GET', DESTINATIONS, { query: '?sort=origin&limit=1' })).status).toBe(200);
    expect((await call('GET', DESTINATIONS, { query: '?sort=name' })).status).toBe(400);
    expect((await call('GET', DESTINATIONS, { key: null })).status).toBe(401);
    expect((await call('GET', DESTINATION, { id: receiver.url })).status).toBe(200);
    expect((await call('GET', DESTINATION, { id: 'https://never.example' })).status).toBe(404);
    expect((await call('GET', DESTINATION, { id: `${receiver.url}/path` })).status).toBe(400);
    expect((await call('GET', DESTINATION, { id: receiver.url, key: null })).status).toBe(401);
    const settings = { rate_limit: { requests: 5, per: 'minute' }, max_in_flight: 3, paused: true };
    expect((await call('PATCH', DESTINATION, { id: receiver.url, body: settings })).status).toBe(200);
    expect((await call('PATCH', DESTINATION, { id: receiver.url, body: { paused: null } })).status).toBe(200);
    expect((await call('PATCH', DESTINATION, { id: receiver.url, body: { max_in_flight: 0 } })).status).toBe(
      400,
    );
    expect((await call('PATCH', DESTINATION, { id: receiver.url, key: null, body: {} })).status).toBe(401);
    const big = { rate_limit: null, note: 'x'.repeat(70 * 1024) };
    expect((await call('PATCH', DESTINATION, { id: receiver.url, body: big })).status).toBe(413);

    const em = app.orm.em.fork();
    await setTeamLimits(em, team.teamId, { requests_per_second: 1, request_burst: 1 }, new Date());
    for (const [method, template, body] of [
      ['GET', DESTINATIONS, undefined],
      ['GET', DESTINATION, undefined],
      ['PATCH', DESTINATION, { paused: false }],
    ] as const) {
      let status = 0;
      for (let tries = 0; tries < 5 && status !== 429; tries++) {
        status = (await call(method, template, { id: receiver.url, ...(body ? { body } : {}) })).status;
      }
      expect(status, `${method} ${template}`).toBe(429);
    }
    await setTeamLimits(em, team.teamId, { requests_per_second: null, request_burst: null }, new Date());
  });

  it('refuses a body the document does not allow, so the checks above can fail', () => {
    const wrong = {
      status: 200,
      body: { data: { id: 'x', status: 'lost' } },
      text: '',
      headers: new Headers(),
    };
    expect(validators.check('GET', EVENT, wrong).errors.length).toBeGreaterThan(1);
    expect(validators.check('GET', EVENT, { ...wrong, status: 418 }).errors).toEqual([
      'status 418 is not documented',
    ]);
  });

  it('cover every documented status but 500, which the service cannot be made to answer here', () => {
    const wanted = validators
      .documented()
      .filter((key) => !key.endsWith(' 500'))
      // A list or a create addresses no resource, so nothing there can be missing; a destination's
      // settings may be made before its first event, so no origin is missing to its PATCH.
      // A bulk replay's filter names no resource either (another team's cron matches nothing).
      .filter((key) => !/^(list|create)\w+ 404$/.test(key) && key !== 'updateDestination 404')
      .filter((key) => key !== 'replayEvents 404')
      // fetch sends no body with a GET, so a GET cannot be too large here.
      .filter((key) => !/^(list|get)\w+ 413$/.test(key));
    expect(wanted.filter((key) => !seen.has(key))).toEqual([]);
  });
});
