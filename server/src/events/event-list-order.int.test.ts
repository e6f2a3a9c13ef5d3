import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectValidationError } from '../../test/expect.js';
import { type EventFixture, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const BASE = Date.parse('2031-06-01T00:00:00Z');
const at = (seconds: number) => new Date(BASE + seconds * 1000);

/**
 * Nine events: created in one order, scheduled in another, three per scheduled second so that the
 * id decides between them.
 */
async function nineEvents(team: TestTeam): Promise<EventFixture[]> {
  return makeEvents(app.orm.em.fork(), team.teamId, 9, (i) => ({
    createdAt: at(-100 + i),
    updatedAt: at(-100 + i),
    scheduledAt: at(Math.floor(((i * 4) % 9) / 3)),
    status: i % 2 === 0 ? 'pending' : 'failed',
  }));
}

const byScheduled = (events: EventFixture[], direction: 1 | -1) =>
  [...events]
    .sort(
      (a, b) =>
        direction * (a.scheduledAt.getTime() - b.scheduledAt.getTime()) || direction * (a.id < b.id ? -1 : 1),
    )
    .map((event) => event.id);
const newestCreated = (events: EventFixture[]) =>
  [...events].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((event) => event.id);

async function list(team: TestTeam, query: string) {
  return expectBody(
    await app.request('GET', `/api/v1/events?${query}`, { key: team.key }),
    200,
    bodies.eventPage,
  );
}

/** Every id of the list, walking pages of `limit`. */
async function walk(team: TestTeam, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const body = await list(team, `${query}&limit=${limit}&page=${page}`);
    ids.push(...body.data.map((event) => event.id));
    if ((page + 1) * limit >= body.pagination.total) return ids;
  }
}

describe('GET /api/v1/events?sort', () => {
  it('orders by scheduled time, soonest first and id second, across pages, with sort=scheduled_at', async () => {
    const team = await app.createTeam();
    const events = await nineEvents(team);
    expect(await walk(team, 'sort=scheduled_at', 4)).toEqual(byScheduled(events, 1));
  });

  it('orders by scheduled time, latest first, with sort=-scheduled_at', async () => {
    const team = await app.createTeam();
    const events = await nineEvents(team);
    expect(await walk(team, 'sort=-scheduled_at', 2)).toEqual(byScheduled(events, -1));
  });

  it.each(['', 'sort=created_at', 'sort=-created_at'])(
    'orders newest created first with %j',
    async (query) => {
      const team = await app.createTeam();
      const events = await nineEvents(team);
      expect((await list(team, query)).data.map((event) => event.id)).toEqual(newestCreated(events));
    },
  );

  it.each(['scheduled', 'SCHEDULED_AT', '+scheduled_at', 'scheduled_at,id', ''])(
    'returns 400 VALIDATION_ERROR naming sort when sort=%j',
    async (value) => {
      const team = await app.createTeam();
      const issues = expectValidationError(
        await app.request('GET', `/api/v1/events?sort=${encodeURIComponent(value)}`, { key: team.key }),
      );
      expect(issues.map((issue) => issue.path)).toEqual([['sort']]);
    },
  );
});

describe('GET /api/v1/events?scheduled_after&scheduled_before', () => {
  it('keeps events from scheduled_after (inclusive) to scheduled_before (exclusive), counted exactly', async () => {
    const team = await app.createTeam();
    const events = await nineEvents(team);
    const query = `scheduled_after=${at(1).toISOString()}&scheduled_before=${at(2).toISOString()}&sort=scheduled_at`;
    const body = await list(team, query);
    const expected = byScheduled(
      events.filter((event) => event.scheduledAt.getTime() === at(1).getTime()),
      1,
    );
    expect(body.data.map((event) => event.id)).toEqual(expected);
    expect(body.pagination.total).toBe(3);
  });

  it('combines the bounds with status and accepts an offset', async () => {
    const team = await app.createTeam();
    const events = await nineEvents(team);
    // 2031-06-01T02:00:01+02:00 is at(1).
    const body = await list(
      team,
      `status=failed&scheduled_after=${encodeURIComponent('2031-06-01T02:00:01+02:00')}`,
    );
    const expected = events.filter((event) => event.status === 'failed' && event.scheduledAt >= at(1));
    expect(body.data.map((event) => event.id).sort()).toEqual(expected.map((event) => event.id).sort());
    expect(body.pagination.total).toBe(expected.length);
  });

  it('returns an empty page when the bounds leave nothing', async () => {
    const team = await app.createTeam();
    await nineEvents(team);
    const body = await list(team, `scheduled_before=${at(0).toISOString()}`);
    expect(body).toEqual({ data: [], pagination: { page: 0, limit: 100, total: 0 } });
  });

  it.each([
    ['scheduled_after', 'yesterday'],
    ['scheduled_after', '2031-06-01'],
    ['scheduled_before', '2031-06-01T00:00:00'],
    ['scheduled_before', ''],
  ])('returns 400 VALIDATION_ERROR when %s=%j', async (name, value) => {
    const team = await app.createTeam();
    const issues = expectValidationError(
      await app.request('GET', `/api/v1/events?${name}=${encodeURIComponent(value)}`, { key: team.key }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([[name]]);
  });
});
