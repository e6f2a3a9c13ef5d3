import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeCron, makeEvent } from '../test/fixtures.js';
import { API_KEY, BASE_URL, recorder, server, testClient, useMockApi } from '../test/msw.js';
import { NetworkError, createClient } from './index.js';

useMockApi();

const pagination = { page: 0, limit: 100, total: 1 };

describe('crons', () => {
  it('sends list queries as strings and returns the page as the API sent it', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: [makeCron()], pagination: { page: 2, limit: 10, total: 21 } });
      }),
    );

    const page = await testClient().crons.list({ page: 2, limit: 10, is_active: false });

    expect(page).toEqual({ data: [makeCron()], pagination: { page: 2, limit: 10, total: 21 } });
    expect(new URL(requests[0]!.url).search).toBe('?page=2&limit=10&is_active=false');
  });

  it('leaves out undefined query parameters', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: [], pagination: { ...pagination, total: 0 } });
      }),
    );

    await testClient().crons.list({ is_active: undefined });

    expect(new URL(requests[0]!.url).search).toBe('');
  });

  it('posts the input as JSON and returns the created cron', async () => {
    const { requests, record } = recorder();
    const cron = makeCron();
    server.use(
      http.post(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: cron }, { status: 201 });
      }),
    );
    const input = {
      webhook_url: cron.webhook_url,
      cron_expression: cron.cron_expression,
      timezone: 'Europe/Paris',
    };

    await expect(testClient().crons.create(input)).resolves.toEqual(cron);

    expect(requests[0]!.headers.get('content-type')).toBe('application/json');
    expect(await requests[0]!.json()).toEqual(input);
  });

  it('gets, replaces and deletes by id with the matching methods', async () => {
    const cron = makeCron();
    const { requests, record } = recorder();
    const path = `${BASE_URL}/api/v1/crons/${cron.id}`;
    server.use(
      http.get(path, ({ request }) => (record(request), HttpResponse.json({ data: cron }))),
      http.put(
        path,
        ({ request }) => (record(request), HttpResponse.json({ data: { ...cron, is_active: false } })),
      ),
      http.delete(path, ({ request }) => (record(request), HttpResponse.json({ data: { success: true } }))),
    );
    const client = testClient();

    await expect(client.crons.get(cron.id)).resolves.toEqual(cron);
    const input = { webhook_url: cron.webhook_url, cron_expression: cron.cron_expression, is_active: false };
    await expect(client.crons.update(cron.id, input)).resolves.toMatchObject({ is_active: false });
    await expect(client.crons.delete(cron.id)).resolves.toEqual({ success: true });

    expect(requests.map((request) => request.method)).toEqual(['GET', 'PUT', 'DELETE']);
    expect(await requests[1]!.json()).toEqual(input);
  });
});

describe('events', () => {
  it('sends status and cron_id filters', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/events`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: [makeEvent()], pagination });
      }),
    );
    const cronId = makeCron().id;

    await testClient().events.list({ status: 'failed', cron_id: cronId, limit: 20 });

    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({
      status: 'failed',
      cron_id: cronId,
      limit: '20',
    });
  });

  it('sends sort and the scheduled time bounds', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/events`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: [makeEvent()], pagination });
      }),
    );

    await testClient().events.list({
      sort: '-scheduled_at',
      scheduled_after: '2030-01-01T00:00:00Z',
      scheduled_before: '2030-01-02T00:00:00Z',
    });

    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({
      sort: '-scheduled_at',
      scheduled_after: '2030-01-01T00:00:00Z',
      scheduled_before: '2030-01-02T00:00:00Z',
    });
  });

  it('creates, reads, replaces and deletes an event', async () => {
    const event = makeEvent();
    const path = `${BASE_URL}/api/v1/events/${event.id}`;
    server.use(
      http.post(`${BASE_URL}/api/v1/events`, () => HttpResponse.json({ data: event }, { status: 201 })),
      http.get(path, () => HttpResponse.json({ data: event })),
      http.put(path, () => HttpResponse.json({ data: { ...event, method: 'PUT' } })),
      http.delete(path, () => HttpResponse.json({ data: { success: true } })),
    );
    const client = testClient();
    const input = { webhook_url: event.webhook_url, scheduled_at: event.scheduled_at };

    await expect(client.events.create(input)).resolves.toEqual(event);
    await expect(client.events.get(event.id)).resolves.toEqual(event);
    await expect(client.events.update(event.id, { ...input, method: 'PUT' })).resolves.toMatchObject({
      method: 'PUT',
    });
    await expect(client.events.delete(event.id)).resolves.toEqual({ success: true });
  });

  it('percent-encodes the id in the path', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/events/:id`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: makeEvent() });
      }),
    );

    await testClient().events.get('a/b?c');

    expect(new URL(requests[0]!.url).pathname).toBe('/api/v1/events/a%2Fb%3Fc');
  });
});

describe('request headers', () => {
  it('sends the API key as a bearer token, accepts JSON and names the SDK and its version', async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        record(request);
        return HttpResponse.json({ data: [], pagination });
      }),
    );

    await testClient().crons.list();

    const headers = requests[0]!.headers;
    expect(headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('user-agent')).toBe(`webhook-scheduler-sdk/${__SDK_VERSION__}`);
  });
});

describe('createClient', () => {
  it('keeps the path of a baseUrl behind a reverse proxy, with or without a trailing slash', async () => {
    server.use(
      http.get('https://proxy.test/scheduler/api/v1/crons', () =>
        HttpResponse.json({ data: [], pagination }),
      ),
    );
    for (const baseUrl of ['https://proxy.test/scheduler', 'https://proxy.test/scheduler/']) {
      await expect(createClient({ baseUrl, apiKey: API_KEY }).crons.list()).resolves.toMatchObject({
        data: [],
      });
    }
  });

  it('throws a TypeError when baseUrl is not an absolute URL', () => {
    expect(() => createClient({ baseUrl: 'localhost:3000', apiKey: API_KEY })).toThrow(TypeError);
  });

  it('throws a TypeError when apiKey is empty', () => {
    expect(() => createClient({ baseUrl: BASE_URL, apiKey: '' })).toThrow(/apiKey/);
  });

  it('sends the headers it is given with every call, without an apiKey', async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json({ data: [], pagination });
      }),
    );
    const client = createClient({
      baseUrl: BASE_URL,
      headers: { 'x-team-id': 'team-1', 'x-csrf-token': 'csrf' },
    });
    await client.crons.list();
    expect(seen[0]?.get('x-team-id')).toBe('team-1');
    expect(seen[0]?.get('x-csrf-token')).toBe('csrf');
    expect(seen[0]?.get('authorization')).toBeNull();
  });

  it('sends apiKey over an authorization header given in headers', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/crons`, ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json({ data: [], pagination });
      }),
    );
    await createClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      headers: { authorization: 'Basic x' },
    }).crons.list();
    expect(seen).toEqual([`Bearer ${API_KEY}`]);
  });

  it('uses the fetch it is given', async () => {
    const calls: string[] = [];
    const client = createClient({
      baseUrl: 'https://custom-fetch.test',
      apiKey: API_KEY,
      fetch: (input) => {
        calls.push(input instanceof Request ? input.url : String(input));
        return Promise.resolve(Response.json({ data: makeCron() }));
      },
    });

    await client.crons.get(makeCron().id);

    expect(calls).toEqual([`https://custom-fetch.test/api/v1/crons/${makeCron().id}`]);
  });
});

describe('the mocked API', () => {
  it('fails a request that no handler matches instead of letting it reach the network', async () => {
    const error: unknown = await testClient({ retry: 0 })
      .crons.list()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    const messages: string[] = [];
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
      messages.push(cause.message);
    expect(messages.join('\n')).toContain('[MSW]');
  });
});
