import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeCron, makeEvent, makeEvents } from '../test/fixtures.js';
import { BASE_URL, recorder, server, testClient, useMockApi } from '../test/msw.js';

useMockApi();

const INPUT = { webhook_url: 'https://example.com/hook', scheduled_at: '2030-01-01T09:00:00Z' };

describe('events.createMany', () => {
  it('posts the events under "events" with a key and resolves to the created events', async () => {
    const { requests, record } = recorder();
    const created = makeEvents(2);
    server.use(
      http.post(`${BASE_URL}/api/v1/events/batch`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
    );

    await expect(testClient().events.createMany([INPUT, INPUT])).resolves.toEqual(created);
    expect(await requests[0]?.json()).toEqual({ events: [INPUT, INPUT] });
    expect(requests[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a batch answered 503 with the same key', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/events/batch`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length === 1
          ? HttpResponse.json({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'x' } }, { status: 503 })
          : HttpResponse.json({ data: makeEvents(1) }, { status: 201 });
      }),
    );

    await testClient().events.createMany([INPUT], { idempotencyKey: 'batch-7' });
    expect(keys).toEqual(['batch-7', 'batch-7']);
  });

  it('rejects with the item named in the validation error', async () => {
    const details = [{ path: ['events', 1, 'webhook_url'], message: 'webhook_url is not a valid URL' }];
    server.use(
      http.post(`${BASE_URL}/api/v1/events/batch`, () =>
        HttpResponse.json(
          { error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details } },
          { status: 400 },
        ),
      ),
    );

    await expect(testClient().events.createMany([INPUT, INPUT])).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details,
    });
  });
});

describe('events.replay and crons.trigger', () => {
  it('posts to the replay route without a body and resolves to the new event', async () => {
    const { requests, record } = recorder();
    const replay = makeEvent({ replay_of: makeEvent().id, id: '00000000-0000-4000-8000-000000000001' });
    server.use(
      http.post(`${BASE_URL}/api/v1/events/:id/replay`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: replay }, { status: 201 });
      }),
    );

    await expect(testClient().events.replay(makeEvent().id)).resolves.toEqual(replay);
    expect(new URL(requests[0]?.url ?? '').pathname).toBe(`/api/v1/events/${makeEvent().id}/replay`);
    expect(await requests[0]?.text()).toBe('');
  });

  it('rejects a replay of a pending event with BAD_REQUEST and its currentStatus', async () => {
    server.use(
      http.post(`${BASE_URL}/api/v1/events/:id/replay`, () =>
        HttpResponse.json(
          { error: { code: 'BAD_REQUEST', message: 'pending', details: { currentStatus: 'pending' } } },
          { status: 400 },
        ),
      ),
    );

    await expect(testClient().events.replay(makeEvent().id)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      details: { currentStatus: 'pending' },
    });
  });

  it('posts to the trigger route and resolves to the run’s event', async () => {
    const { requests, record } = recorder();
    const run = makeEvent({ cron_id: makeCron().id });
    server.use(
      http.post(`${BASE_URL}/api/v1/crons/:id/trigger`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: run }, { status: 201 });
      }),
    );

    await expect(testClient().crons.trigger(makeCron().id)).resolves.toEqual(run);
    expect(new URL(requests[0]?.url ?? '').pathname).toBe(`/api/v1/crons/${makeCron().id}/trigger`);
  });
});

describe('crons.patch', () => {
  it('sends only the fields given, with PATCH, and resolves to the cron', async () => {
    const { requests, record } = recorder();
    const cron = makeCron({ is_active: false });
    server.use(
      http.patch(`${BASE_URL}/api/v1/crons/:id`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: cron });
      }),
    );

    await expect(testClient().crons.patch(cron.id, { is_active: false })).resolves.toEqual(cron);
    expect(requests[0]?.method).toBe('PATCH');
    expect(await requests[0]?.json()).toEqual({ is_active: false });
  });
});
