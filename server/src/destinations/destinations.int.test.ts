import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';

let app: TestApp;
let team: TestTeam;
let other: TestTeam;
const receivers: Receiver[] = [];

beforeAll(async () => {
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 2000 } });
  team = await app.createTeam();
  other = await app.createTeam('other');
});
afterAll(async () => {
  await app.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A receiver of its own: each test's origin starts with no history. */
async function newReceiver(): Promise<Receiver> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  return receiver;
}

/** The scheduler reads the teams' limits every second: a new one holds from the next read. */
const limitsRead = () => new Promise((resolve) => setTimeout(resolve, 1500));

const path = (origin: string) => `/api/v1/destinations/${encodeURIComponent(origin)}`;
const soon = (ms = 0) => new Date(Date.now() + ms).toISOString();

async function schedule(url: string, count: number, extra: object = {}): Promise<string[]> {
  const created = await app.request('POST', '/api/v1/events/batch', {
    key: team.key,
    body: {
      events: Array.from({ length: count }, (_, i) => ({
        webhook_url: `${url}?n=${i}`,
        scheduled_at: soon(300 + i),
        ...extra,
      })),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.map((event: { id: string }) => event.id);
}

describe('destinations', () => {
  it('takes settings for an origin before its first event, in any spelling, for the caller’s team only', async () => {
    const patched = await app.request('PATCH', path('https://Hooks.Example.com:443'), {
      key: team.key,
      body: { rate_limit: { requests: 10, per: 'second' }, max_in_flight: 5, paused: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      origin: 'https://hooks.example.com',
      rate_limit: { requests: 10, per: 'second' },
      max_in_flight: 5,
      paused: true,
      pending: 0,
      in_flight: 0,
      circuit: 'closed',
      calls_24h: 0,
      last_call_at: null,
    });
    const got = await app.request('GET', path('https://hooks.example.com'), { key: team.key });
    expect(got.body.data.max_in_flight).toBe(5);
    const cleared = await app.request('PATCH', path('https://hooks.example.com'), {
      key: team.key,
      body: { rate_limit: null, paused: null },
    });
    expect(cleared.body.data).toMatchObject({ rate_limit: null, max_in_flight: 5, paused: false });
    expect((await app.request('GET', path('https://hooks.example.com'), { key: other.key })).status).toBe(
      404,
    );
    expect((await app.request('GET', path('https://never.example'), { key: team.key })).status).toBe(404);
    const listed = await app.request('GET', '/api/v1/destinations', { key: team.key });
    expect(listed.body.data.map((d: { origin: string }) => d.origin)).toContain('https://hooks.example.com');
    expect((await app.request('GET', '/api/v1/destinations', { key: other.key })).body.data).toEqual([]);
  });

  it.each([
    ['https://hooks.example.com/in', {}, 'origin'],
    ['ftp://hooks.example.com', {}, 'origin'],
    ['https://hooks.example.com', { max_in_flight: 51 }, 'max_in_flight'],
    ['https://hooks.example.com', { rate_limit: { requests: 0, per: 'second' } }, 'rate_limit'],
    ['https://hooks.example.com', { rate_limit: { requests: 5, per: 'day' } }, 'rate_limit'],
    ['https://hooks.example.com', { paused: 'yes' }, 'paused'],
    ['https://hooks.example.com', { colour: 'red' }, ''],
  ])('refuses PATCH %s %j with 400 VALIDATION_ERROR naming %s', async (origin, body, field) => {
    const response = await app.request('PATCH', path(origin), { key: team.key, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(response.body.error.details)).toContain(field);
  });

  it('holds a paused destination’s events pending without calling it, and sends them in order on resume', async () => {
    const receiver = await newReceiver();
    await app.request('PATCH', path(receiver.url), { key: team.key, body: { paused: true } });
    const ids = await schedule(`${receiver.url}/paused`, 5, {});
    await eventually(
      () => app.request('GET', path(receiver.url), { key: team.key }),
      (response) => response.body.data.pending === 5,
    );
    // Due, they are held back (parked) by the claims instead of sent.
    await eventually(
      () =>
        app.sql<{ n: string }>(
          'select count(*) as n from event_queue where event_id = any($1) and parked_until is not null',
          [ids],
        ),
      ([row]) => Number(row?.n) === 5,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests).toHaveLength(0);
    await app.request('PATCH', path(receiver.url), { key: team.key, body: { paused: false } });
    const received = await receiver.waitFor(5);
    expect(received.map((request) => request.path).sort()).toEqual(
      [0, 1, 2, 3, 4].map((n) => `/paused?n=${n}`),
    );
    // Outcomes are recorded in batches, just after the calls.
    const after = await eventually(
      () => app.request('GET', path(receiver.url), { key: team.key }),
      (response) => response.body.data.calls_24h === 5,
    );
    // In order: each call started no earlier than the one due before it. (Arrivals on five new
    // connections at once may overtake each other: on a loaded machine 2, 3 and 4 arrived first.)
    const starts = await app.sql<{ executed_at: Date }>(
      'select executed_at from events where id = any($1) order by scheduled_at',
      [ids],
    );
    const times = starts.map((row) => new Date(row.executed_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(after.body.data).toMatchObject({
      pending: 0,
      in_flight: 0,
      failures_24h: 0,
      last_status: 'success',
    });
    expect(after.body.data.last_response_status).toBe(200);
  });

  it('keeps at most max_in_flight of the team’s calls at once', async () => {
    const receiver = await newReceiver();
    receiver.reply('/slow', { delayMs: 300 });
    await app.request('PATCH', path(receiver.url), { key: team.key, body: { max_in_flight: 2 } });
    await limitsRead();
    await schedule(`${receiver.url}/slow`, 8);
    await receiver.waitFor(8, () => true, 20_000);
    const starts = receiver.requests.map((request) => request.at).sort((a, b) => a - b);
    for (const start of starts) {
      // Each call lasts ~300 ms: no more than two start within one call's time.
      expect(starts.filter((at) => at >= start && at < start + 250).length).toBeLessThanOrEqual(2);
    }
  });

  it('starts no more than the rate limit in any window, and sends them all', async () => {
    const receiver = await newReceiver();
    await app.request('PATCH', path(receiver.url), {
      key: team.key,
      body: { rate_limit: { requests: 4, per: 'second' } },
    });
    await limitsRead();
    await schedule(`${receiver.url}/rated`, 12);
    const received = await receiver.waitFor(12, () => true, 20_000);
    const starts = received.map((request) => request.at).sort((a, b) => a - b);
    // Calls start at most 4 a second; arriving, they may bunch up by the network's jitter (< 100 ms).
    for (const start of starts) {
      expect(starts.filter((at) => at >= start && at < start + 900).length).toBeLessThanOrEqual(4);
    }
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(1900);
  });

  it('honours a 429 Retry-After: the event’s retry and the team’s other calls to the origin wait for it', async () => {
    const receiver = await newReceiver();
    receiver.reply('/busy', (_request, count) =>
      count === 1 ? { status: 429, headers: { 'retry-after': '2' } } : {},
    );
    const [busy] = await schedule(`${receiver.url}/busy`, 1, {
      retry_config: { maxRetries: 2, backoffMs: 100 },
    });
    await receiver.waitFor(1);
    const refusedAt = receiver.requests[0]!.at;
    await schedule(`${receiver.url}/other`, 1);
    await receiver.waitFor(3, () => true, 15_000);
    for (const request of receiver.requests.slice(1))
      expect(request.at - refusedAt).toBeGreaterThanOrEqual(1900);
    // Its outcome is recorded just after the call arrived.
    const retries = await eventually(
      () => app.sql<{ status: string }>('select status from events where retry_of = $1', [busy]),
      (rows) => rows.every((row) => row.status !== 'pending'),
    );
    expect(retries).toEqual([{ status: 'success' }]);
  });
});
