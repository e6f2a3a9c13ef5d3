import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeCron, makeEvent } from '../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../test/msw.js';
import { NetworkError, WebhookSchedulerError } from './index.js';

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

describe('no retries of POST', () => {
  it.each([503, 429])('makes one attempt when a create is answered %i', async (code) => {
    const counter = flaky('post', '/api/v1/events', 1, status(code), () =>
      HttpResponse.json({ data: EVENT }, { status: 201 }),
    );

    await expect(testClient().events.create(INPUT)).rejects.toMatchObject({ status: code });
    expect(counter.attempts).toBe(1);
  });

  it('makes one attempt when a create fails to connect', async () => {
    const counter = flaky(
      'post',
      '/api/v1/crons',
      1,
      () => HttpResponse.error(),
      () => HttpResponse.json({}),
    );

    await expect(
      testClient().crons.create({ webhook_url: 'https://example.com', cron_expression: '* * * * *' }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(counter.attempts).toBe(1);
  });
});
