import { HttpResponse, delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../test/msw.js';
import { TimeoutError } from './index.js';

useMockApi();

const EVENT = makeEvent();
const PATH = `${BASE_URL}/api/v1/events/${EVENT.id}`;

describe('timeouts', () => {
  it('rejects with a TimeoutError carrying the timeout when no response arrives in time', async () => {
    let attempts = 0;
    server.use(
      http.get(PATH, async () => {
        attempts += 1;
        await delay(500);
        return HttpResponse.json({ data: EVENT });
      }),
    );

    const error: unknown = await testClient({ timeout: 50 })
      .events.get(EVENT.id)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 50, name: 'TimeoutError' });
    expect(attempts).toBe(1);
  });

  it('resolves when the response arrives within the timeout', async () => {
    server.use(
      http.get(PATH, async () => {
        await delay(20);
        return HttpResponse.json({ data: EVENT });
      }),
    );

    await expect(testClient({ timeout: 1000 }).events.get(EVENT.id)).resolves.toEqual(EVENT);
  });
});

describe('abort signals', () => {
  it('rejects with the signal’s reason when the caller aborts a request in flight', async () => {
    server.use(
      http.get(PATH, async () => {
        await delay(1000);
        return HttpResponse.json({ data: EVENT });
      }),
    );
    const controller = new AbortController();
    const call = testClient().events.get(EVENT.id, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);

    await expect(call).rejects.toThrow('caller gave up');
  });

  it('stops a retry that is waiting when the caller aborts', async () => {
    let attempts = 0;
    server.use(
      http.get(PATH, () => {
        attempts += 1;
        return HttpResponse.json({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'x' } }, { status: 503 });
      }),
    );
    const controller = new AbortController();
    const call = testClient({ retry: { limit: 5, baseDelayMs: 1000 } }).events.get(EVENT.id, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();

    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(900);
    expect(attempts).toBe(1);
  });

  it('does not send a request whose signal is already aborted', async () => {
    let attempts = 0;
    server.use(
      http.post(`${BASE_URL}/api/v1/events`, () => {
        attempts += 1;
        return HttpResponse.json({ data: EVENT }, { status: 201 });
      }),
    );

    await expect(
      testClient().events.create(
        { webhook_url: EVENT.webhook_url, scheduled_at: EVENT.scheduled_at },
        { signal: AbortSignal.abort() },
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts).toBe(0);
  });
});
