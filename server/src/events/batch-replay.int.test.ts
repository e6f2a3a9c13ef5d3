import { randomUUID } from 'node:crypto';
import type { EventStatus } from '@webhook-scheduler/contract';
import { z } from 'zod';
import { Event } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { eventBody, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const batchBody = z.object({ data: z.array(Event.strict()) }).strict();

const postBatch = (team: TestTeam, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', '/api/v1/events/batch', { key: team.key, body, headers });

async function countEvents(teamId: string): Promise<number> {
  const [row] = await app.sql<{ n: number }>('select count(*)::int as n from events where team_id = $1', [
    teamId,
  ]);
  return row?.n ?? 0;
}

describe('POST /api/v1/events/batch', () => {
  it('returns 201 with every event created, in the order given', async () => {
    const team = await app.createTeam();
    const events = Array.from({ length: 5 }, (_, i) =>
      eventBody({
        payload: { i },
        method: i % 2 ? 'PUT' : 'POST',
        scheduled_at: new Date(Date.now() + 3_600_000 - i * 1000).toISOString(),
      }),
    );
    const { data } = expectBody(await postBatch(team, { events }), 201, batchBody);
    expect(data.map((event) => event.payload)).toEqual(events.map((event) => event.payload));
    expect(data.map((event) => event.method)).toEqual(['POST', 'PUT', 'POST', 'PUT', 'POST']);
    expect(data.every((event) => event.status === 'pending' && event.team_id === team.teamId)).toBe(true);
    expect(await countEvents(team.teamId)).toBe(5);
    const read = await app.request('GET', `/api/v1/events/${data[3]?.id}`, { key: team.key });
    expect(expectBody(read, 200, bodies.event).data).toEqual(data[3]);
  });

  it('creates 1,000 events in one request', async () => {
    const team = await app.createTeam();
    const events = Array.from({ length: 1000 }, (_, i) => eventBody({ payload: i }));
    const { data } = expectBody(await postBatch(team, { events }), 201, batchBody);
    expect(data).toHaveLength(1000);
    expect(new Set(data.map((event) => event.id)).size).toBe(1000);
    expect(await countEvents(team.teamId)).toBe(1000);
  });

  it('returns 400 naming the item and its field when one item is invalid, creating nothing', async () => {
    const team = await app.createTeam();
    const events = [eventBody(), eventBody(), eventBody({ webhook_url: 'ftp://example.com' }), eventBody()];
    const issues = expectValidationError(await postBatch(team, { events }));
    expect(issues.map((issue) => issue.path)).toEqual([['events', 2, 'webhook_url']]);
    expect(await countEvents(team.teamId)).toBe(0);
  });

  it('returns 400 naming every item whose scheduled_at is past, with the contract’s problems', async () => {
    const team = await app.createTeam();
    const past = new Date(Date.now() - 1000).toISOString();
    const events = [
      eventBody({ scheduled_at: past }),
      eventBody(),
      eventBody({ scheduled_at: past, method: 'FETCH' as 'GET' }),
    ];
    const issues = expectValidationError(await postBatch(team, { events }));
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        ['events', 0, 'scheduled_at'],
        ['events', 2, 'scheduled_at'],
        ['events', 2, 'method'],
      ]),
    );
    expect(issues).toHaveLength(3);
    expect(await countEvents(team.teamId)).toBe(0);
  });

  it('returns 400 for a past scheduled_at in a batch of one, naming the item', async () => {
    const team = await app.createTeam();
    const events = [eventBody({ scheduled_at: new Date(Date.now() - 1000).toISOString() })];
    const issues = expectValidationError(await postBatch(team, { events }));
    expect(issues.map((issue) => issue.path)).toEqual([['events', 0, 'scheduled_at']]);
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['an empty batch', { events: [] }, ['events']],
    ['1,001 events', { events: Array.from({ length: 1001 }, () => eventBody()) }, ['events']],
    ['no events field', {}, ['events']],
    ['events that is no array', { events: eventBody() }, ['events']],
    ['an unknown field', { events: [eventBody()], extra: 1 }, ['extra']],
    [
      'an unknown field in an item',
      { events: [eventBody(), { ...eventBody(), cron_id: null }] },
      ['events', 1, 'cron_id'],
    ],
  ])('returns 400 VALIDATION_ERROR for %s', async (_, body, path) => {
    const team = await app.createTeam();
    const issues = expectValidationError(await postBatch(team, body));
    expect(issues.map((issue) => issue.path)).toEqual([path]);
    expect(await countEvents(team.teamId)).toBe(0);
  });

  it('replays a batch sent again with its Idempotency-Key', async () => {
    const team = await app.createTeam();
    const body = { events: [eventBody(), eventBody()] };
    const first = expectBody(await postBatch(team, body, { 'idempotency-key': 'b1' }), 201, batchBody);
    const again = await postBatch(team, body, { 'idempotency-key': 'b1' });
    expect(expectBody(again, 201, batchBody)).toEqual(first);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await countEvents(team.teamId)).toBe(2);
  });

  it('returns 401 without a key', async () => {
    const response = await app.request('POST', '/api/v1/events/batch', { body: { events: [eventBody()] } });
    expectError(response, 401, 'UNAUTHORIZED');
  });
});

describe('POST /api/v1/events/{id}/replay', () => {
  it.each<EventStatus>(['success', 'failed'])(
    'returns 201 with a new event due now copying a %s event, replay_of set',
    async (status) => {
      const team = await app.createTeam();
      const source = await makeEvent(app.orm.em.fork(), team.teamId, {
        status,
        webhookUrl: 'https://example.com/replayed',
        method: 'PATCH',
        headers: { 'x-a': '1' },
        payload: { order: 7 },
        retryConfig: { maxRetries: 2, backoffMs: 200, backoffType: 'linear' },
        executedAt: new Date(),
        responseStatus: status === 'success' ? 200 : 500,
      });
      const before = Date.now();
      const { data } = expectBody(
        await app.request('POST', `/api/v1/events/${source.id}/replay`, { key: team.key }),
        201,
        bodies.event,
      );
      expect(data).toMatchObject({
        replay_of: source.id,
        cron_id: null,
        retry_of: null,
        status: 'pending',
        webhook_url: 'https://example.com/replayed',
        method: 'PATCH',
        headers: { 'x-a': '1' },
        payload: { order: 7 },
        retry_config: { maxRetries: 2, backoffMs: 200, backoffType: 'linear' },
        response_status: null,
        executed_at: null,
      });
      expect(data.id).not.toBe(source.id);
      expect(Date.parse(data.scheduled_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(data.scheduled_at)).toBeLessThanOrEqual(Date.now());
    },
  );

  it('replays a cron-made event as a manual one', async () => {
    const team = await app.createTeam();
    const cron = await app.request('POST', '/api/v1/crons', {
      key: team.key,
      body: { webhook_url: 'https://example.com/c', cron_expression: '0 0 1 1 *', is_active: false },
    });
    const source = await makeEvent(app.orm.em.fork(), team.teamId, {
      status: 'failed',
      cronId: cron.body.data.id,
    });
    const { data } = expectBody(
      await app.request('POST', `/api/v1/events/${source.id}/replay`, { key: team.key }),
      201,
      bodies.event,
    );
    expect(data).toMatchObject({ cron_id: null, replay_of: source.id });
  });

  it.each<EventStatus>(['pending', 'processing'])(
    'returns 400 BAD_REQUEST with currentStatus when the event is %s',
    async (status) => {
      const team = await app.createTeam();
      const source = await makeEvent(app.orm.em.fork(), team.teamId, { status });
      const error = expectError(
        await app.request('POST', `/api/v1/events/${source.id}/replay`, { key: team.key }),
        400,
        'BAD_REQUEST',
      );
      expect(error.details).toEqual({ currentStatus: status });
      expect(await countEvents(team.teamId)).toBe(1);
    },
  );

  it('returns 404 for another team’s event and for an unknown id', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const source = await makeEvent(app.orm.em.fork(), other.teamId, { status: 'failed' });
    for (const id of [source.id, randomUUID()]) {
      expectError(
        await app.request('POST', `/api/v1/events/${id}/replay`, { key: team.key }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('returns 400 VALIDATION_ERROR on id when it is not a UUID', async () => {
    const team = await app.createTeam();
    const issues = expectValidationError(
      await app.request('POST', '/api/v1/events/nope/replay', { key: team.key }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['id']]);
  });

  it('shows replay_of null on events that are no replay', async () => {
    const team = await app.createTeam();
    const { data } = expectBody(
      await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() }),
      201,
      bodies.event,
    );
    expect(data.replay_of).toBeNull();
  });
});
