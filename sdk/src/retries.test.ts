import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeCron, makeEvent } from '../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../test/msw.js';
import { NetworkError, WebhookSchedulerError } from './index.js';
import { createTransport } from './transport.js';

useMockApi();

const EVENT = makeEvent();
const INPUT = { webhook_url: EVENT.webhook_url, scheduled_at: EVENT.scheduled_at };
const serverError = { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' } };

/** Answers `failures` times with `failure`, then with `success`; counts the attempts. */
function flaky(
  method: 'get' | 'put' | 'delete' | 'post',
  path: string,
  failures: number,
  failure: () => Response,
  success: () => Response,
) {
  const counter = { attempts: 0 };
  server.use(
    http[method](`${BASE_URL}${path}`, () => {
      counter.attempts += 1;
      return counter.attempts <= failures ? failure() : success();
    }),
  );
  return counter;
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(serverError, { status: code, headers });

describe('retries of idempotent requests', () => {
  it.each([500, 502, 503, 504, 429])(
    'retries a GET answered %i and returns the later success',
    async (code) => {
      const counter = flaky('get', `/api/v1/events/${EVENT.id}`, 2, status(code), () =>
        HttpResponse.json({ data: EVENT }),
      );

      await expect(testClient().events.get(EVENT.id)).resolves.toEqual(EVENT);
      expect(counter.attempts).toBe(3);
    },
  );

  it('retries a PUT and a DELETE answered 503', async () => {
    const put = flaky('put', `/api/v1/events/${EVENT.id}`, 1, status(503), () =>
      HttpResponse.json({ data: EVENT }),
    );
    const del = flaky('delete', `/api/v1/events/${EVENT.id}`, 1, status(503), () =>
      HttpResponse.json({ data: { success: true } }),
    );
    const client = testClient();

    await client.events.update(EVENT.id, INPUT);
    await client.events.delete(EVENT.id);

    expect([put.attempts, del.attempts]).toEqual([2, 2]);
  });

  it('retries a GET after a network error', async () => {
    const counter = flaky(
      'get',
      '/api/v1/crons',
      1,
      () => HttpResponse.error(),
      () => HttpResponse.json({ data: [makeCron()], pagination: { page: 0, limit: 100, total: 1 } }),
    );

    await expect(testClient().crons.list()).resolves.toMatchObject({ data: [makeCron()] });
    expect(counter.attempts).toBe(2);
  });

  it('gives up after the limit and rejects with the last error', async () => {
    const counter = flaky('get', `/api/v1/events/${EVENT.id}`, 10, status(503), () =>
      HttpResponse.json({ data: EVENT }),
    );

    const error: unknown = await testClient({ retry: { limit: 3, baseDelayMs: 1 } })
      .events.get(EVENT.id)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WebhookSchedulerError);
    expect(error).toMatchObject({ status: 503, code: 'INTERNAL_SERVER_ERROR' });
    expect(counter.attempts).toBe(4);
  });

  it('rejects with a NetworkError when every attempt fails to connect', async () => {
    const counter = flaky(
      'get',
      `/api/v1/events/${EVENT.id}`,
      10,
      () => HttpResponse.error(),
      () => HttpResponse.json({}),
    );

    await expect(testClient({ retry: 1 }).events.get(EVENT.id)).rejects.toBeInstanceOf(NetworkError);
    expect(counter.attempts).toBe(2);
  });

  it('makes one attempt when retries are turned off', async () => {
    const counter = flaky('get', `/api/v1/events/${EVENT.id}`, 1, status(503), () =>
      HttpResponse.json({ data: EVENT }),
    );

    await expect(testClient({ retry: 0 }).events.get(EVENT.id)).rejects.toMatchObject({ status: 503 });
    expect(counter.attempts).toBe(1);
  });

  it.each([400, 401, 404, 413])('does not retry a GET answered %i', async (code) => {
    const counter = flaky('get', `/api/v1/events/${EVENT.id}`, 1, status(code), () =>
      HttpResponse.json({ data: EVENT }),
    );

    await expect(testClient().events.get(EVENT.id)).rejects.toMatchObject({ status: code });
    expect(counter.attempts).toBe(1);
  });

  it('waits the Retry-After seconds of a 429 instead of the backoff', async () => {
    const counter = flaky('get', `/api/v1/events/${EVENT.id}`, 1, status(429, { 'retry-after': '1' }), () =>
      HttpResponse.json({ data: EVENT }),
    );
    const started = performance.now();

    await testClient().events.get(EVENT.id);

    expect(counter.attempts).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('cuts a Retry-After longer than maxRetryAfterMs', async () => {
    flaky('get', `/api/v1/events/${EVENT.id}`, 1, status(503, { 'retry-after': '3600' }), () =>
      HttpResponse.json({ data: EVENT }),
    );
    const started = performance.now();

    await testClient({ retry: { maxRetryAfterMs: 20 } }).events.get(EVENT.id);

    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('retries of creates, with their Idempotency-Key', () => {
  /** Answers `failures` creates with `failure`, then 201; records the key of every attempt. */
  function flakyCreate(path: string, failures: number, failure: () => Response) {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${BASE_URL}${path}`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length <= failures ? failure() : HttpResponse.json({ data: EVENT }, { status: 201 });
      }),
    );
    return keys;
  }

  it.each([503, 429, 409])('retries a create answered %i with the same key', async (code) => {
    const keys = flakyCreate('/api/v1/events', 1, status(code));

    await expect(testClient().events.create(INPUT)).resolves.toEqual(EVENT);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('retries a create that failed to connect with the same key', async () => {
    const keys = flakyCreate('/api/v1/crons', 1, () => HttpResponse.error());

    await testClient().crons.create({ webhook_url: 'https://example.com', cron_expression: '* * * * *' });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives each create its own key', async () => {
    const keys = flakyCreate('/api/v1/events', 0, status(500));
    const client = testClient();

    await client.events.create(INPUT);
    await client.events.create(INPUT);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('sends the caller’s own key', async () => {
    const keys = flakyCreate('/api/v1/events', 1, status(502));

    await testClient().events.create(INPUT, { idempotencyKey: 'order-1234' });
    expect(keys).toEqual(['order-1234', 'order-1234']);
  });

  it('does not retry a create answered 422 IDEMPOTENCY_KEY_MISMATCH', async () => {
    const keys = flakyCreate('/api/v1/events', 1, () =>
      HttpResponse.json(
        { error: { code: 'IDEMPOTENCY_KEY_MISMATCH', message: 'different body' } },
        { status: 422 },
      ),
    );

    await expect(testClient().events.create(INPUT, { idempotencyKey: 'k' })).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_MISMATCH',
    });
    expect(keys).toHaveLength(1);
  });

  it('makes one attempt when retries are off', async () => {
    const keys = flakyCreate('/api/v1/events', 1, status(503));

    await expect(testClient({ retry: 0 }).events.create(INPUT)).rejects.toMatchObject({ status: 503 });
    expect(keys).toHaveLength(1);
  });
});

describe('no retries of a POST without a key', () => {
  it('sends no key and makes one attempt for a call that does not create', async () => {
    const transport = createTransport({ baseUrl: BASE_URL, apiKey: 'whs_test' });
    const counter = flaky('post', '/api/v1/events', 1, status(503), () =>
      HttpResponse.json({ data: EVENT }, { status: 201 }),
    );

    await expect(
      transport({ method: 'POST', path: '/api/v1/events' }, { body: INPUT }),
    ).rejects.toMatchObject({ status: 503 });
    expect(counter.attempts).toBe(1);
  });
});
