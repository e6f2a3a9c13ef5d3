import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeEvents } from '../test/fixtures.js';
import { BASE_URL, recorder, server, testClient, useMockApi } from '../test/msw.js';

useMockApi();

const FILTER = {
  status: 'failed',
  destination: 'https://hooks.example.com',
  scheduled_after: '2030-01-01T00:00:00Z',
} as const;

describe('events.replayMany', () => {
  it('posts the filter with a fresh key and resolves to the count and the first new events', async () => {
    const { requests, record } = recorder();
    const answer = { replayed: 250, data: makeEvents(2) };
    server.use(
      http.post(`${BASE_URL}/api/v1/events/replay`, ({ request }) => {
        record(request);
        return HttpResponse.json(answer, { status: 201 });
      }),
    );

    await expect(testClient().events.replayMany(FILTER)).resolves.toEqual(answer);
    expect(await requests[0]?.json()).toEqual(FILTER);
    expect(requests[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a replay answered 503 with the key given', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/events/replay`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length === 1
          ? HttpResponse.json({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'x' } }, { status: 503 })
          : HttpResponse.json({ replayed: 0, data: [] }, { status: 201 });
      }),
    );

    await testClient().events.replayMany({ status: 'success' }, { idempotencyKey: 'replay-7' });
    expect(keys).toEqual(['replay-7', 'replay-7']);
  });

  it('rejects with BAD_REQUEST and the count when the filter matches more than 10,000 events', async () => {
    const details = { matched: 12_000, max: 10_000 };
    server.use(
      http.post(`${BASE_URL}/api/v1/events/replay`, () =>
        HttpResponse.json(
          { error: { code: 'BAD_REQUEST', message: '12000 events match the filter', details } },
          { status: 400 },
        ),
      ),
    );

    await expect(testClient().events.replayMany(FILTER)).rejects.toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      details,
    });
  });
});
