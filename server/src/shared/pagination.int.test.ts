import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventStatus } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { makeCron, makeCrons, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Row = { id: string; createdAt: Date };
type MakeRows = (em: EntityManager, teamId: string, count: number, at: (i: number) => Date) => Promise<Row[]>;

const lists: {
  name: string;
  path: string;
  page: typeof bodies.cronPage | typeof bodies.eventPage;
  make: MakeRows;
}[] = [
  {
    name: 'crons',
    path: '/api/v1/crons',
    page: bodies.cronPage,
    make: (em, teamId, count, at) =>
      makeCrons(em, teamId, count, (i) => ({ createdAt: at(i), updatedAt: at(i) })),
  },
  {
    name: 'events',
    path: '/api/v1/events',
    page: bodies.eventPage,
    make: (em, teamId, count, at) =>
      makeEvents(em, teamId, count, (i) => ({ createdAt: at(i), updatedAt: at(i) })),
  },
];

const BASE = Date.parse('2026-01-01T00:00:00Z');
/** Three rows share each timestamp, so the id decides their order. */
const inGroupsOfThree = (i: number) => new Date(BASE + Math.floor(i / 3) * 1000);

function newestFirst(rows: Row[]): string[] {
  return [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((row) => row.id);
}

describe.each(lists)('GET $path', (list) => {
  const get = (team: TestTeam, query = '') => app.request('GET', `${list.path}${query}`, { key: team.key });

  it('answers page 0 of an empty list with an empty array', async () => {
    const team = await app.createTeam();
    const page = expectBody(await get(team), 200, list.page);
    expect(page).toEqual({ data: [], pagination: { page: 0, limit: 100, total: 0 } });
  });

  it('uses page 0 and limit 100 by default', async () => {
    const team = await app.createTeam();
    const rows = await list.make(app.orm.em.fork(), team.teamId, 101, inGroupsOfThree);
    const page = expectBody(await get(team), 200, list.page);
    expect(page.pagination).toEqual({ page: 0, limit: 100, total: 101 });
    expect(page.data.map((item) => item.id)).toEqual(newestFirst(rows).slice(0, 100));
  });

  it('orders newest first, then by id, in pages that cover every row once', async () => {
    const team = await app.createTeam();
    const rows = await list.make(app.orm.em.fork(), team.teamId, 23, inGroupsOfThree);
    const seen: string[] = [];
    for (let page = 0; page < 5; page++) {
      const body = expectBody(await get(team, `?page=${page}&limit=5`), 200, list.page);
      expect(body.pagination).toEqual({ page, limit: 5, total: 23 });
      expect(body.data).toHaveLength(page < 4 ? 5 : 3);
      seen.push(...body.data.map((item) => item.id));
    }
    expect(seen).toEqual(newestFirst(rows));
    expect(new Set(seen).size).toBe(23);
  });

  it.each([
    ['the page starts exactly at the end', 'page=1&limit=4', 4],
    ['the page starts after the end', 'page=3&limit=4', 4],
    ['the list is empty', 'page=1&limit=10', 0],
    ['the page is huge', 'page=9007199254740991&limit=1000', 4],
  ])('returns 500 INTERNAL_SERVER_ERROR when %s', async (_, query, count) => {
    const team = await app.createTeam();
    await list.make(app.orm.em.fork(), team.teamId, count, inGroupsOfThree);
    const error = expectError(await get(team, `?${query}`), 500, 'INTERNAL_SERVER_ERROR');
    expect(error.message).toMatch(/out of range/);
    const [page, limit] = [...new URLSearchParams(query).values()].map(Number);
    expect(error.details).toEqual({ page, limit, total: count });
  });

  it('returns the last page when it is partly filled', async () => {
    const team = await app.createTeam();
    await list.make(app.orm.em.fork(), team.teamId, 5, inGroupsOfThree);
    const page = expectBody(await get(team, '?page=1&limit=4'), 200, list.page);
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toEqual({ page: 1, limit: 4, total: 5 });
  });

  it.each([
    ['1', 1],
    ['1000', 1000],
    ['007', 7],
  ])('accepts limit=%s', async (limit, parsed) => {
    const team = await app.createTeam();
    const page = expectBody(await get(team, `?limit=${limit}`), 200, list.page);
    expect(page.pagination.limit).toBe(parsed);
  });

  it.each([
    ['limit', '0'],
    ['limit', '1001'],
    ['limit', '-1'],
    ['limit', '1.5'],
    ['limit', '1e2'],
    ['limit', ''],
    ['limit', 'ten'],
    ['limit', '0x10'],
    ['limit', '%2010'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', '1e2'],
    ['page', ''],
    ['page', 'first'],
    ['page', '+1'],
  ])('returns 400 VALIDATION_ERROR when %s=%j', async (name, value) => {
    const team = await app.createTeam();
    const issues = expectValidationError(await get(team, `?${name}=${value}`));
    expect(issues.map((issue) => issue.path)).toEqual([[name]]);
  });

  it('returns 400 VALIDATION_ERROR when page is given twice', async () => {
    const team = await app.createTeam();
    const issues = expectValidationError(await get(team, '?page=1&page=2'));
    expect(issues.map((issue) => issue.path)).toEqual([['page']]);
  });
});

describe('GET /api/v1/crons filters', () => {
  it.each([
    ['true', true],
    ['false', false],
  ])('returns only crons with is_active=%s, and counts only those', async (query, active) => {
    const team = await app.createTeam();
    const crons = await makeCrons(app.orm.em.fork(), team.teamId, 5, (i) => ({ isActive: i % 2 === 0 }));
    const page = expectBody(
      await app.request('GET', `/api/v1/crons?is_active=${query}`, { key: team.key }),
      200,
      bodies.cronPage,
    );
    const expected = crons.filter((cron) => cron.isActive === active).map((cron) => cron.id);
    expect(page.data.map((cron) => cron.id).sort()).toEqual(expected.sort());
    expect(page.data.every((cron) => cron.is_active === active)).toBe(true);
    expect(page.pagination.total).toBe(expected.length);
  });

  it.each(['yes', '1', '0', 'TRUE', 'False', '', 'null'])(
    'returns 400 VALIDATION_ERROR when is_active=%j',
    async (value) => {
      const team = await app.createTeam();
      const issues = expectValidationError(
        await app.request('GET', `/api/v1/crons?is_active=${value}`, { key: team.key }),
      );
      expect(issues.map((issue) => issue.path)).toEqual([['is_active']]);
    },
  );
});

describe('GET /api/v1/events filters', () => {
  const statuses: EventStatus[] = ['pending', 'processing', 'success', 'failed'];

  it.each(statuses)('returns only %s events, and counts only those', async (status) => {
    const team = await app.createTeam();
    const events = await makeEvents(app.orm.em.fork(), team.teamId, 9, (i) => ({
      status: statuses[i % 4] ?? 'pending',
    }));
    const page = expectBody(
      await app.request('GET', `/api/v1/events?status=${status}`, { key: team.key }),
      200,
      bodies.eventPage,
    );
    const expected = events.filter((event) => event.status === status).map((event) => event.id);
    expect(page.data.map((event) => event.id).sort()).toEqual(expected.sort());
    expect(page.pagination.total).toBe(expected.length);
  });

  it('returns only the events of the given cron, combined with status', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const other = await makeCron(app.orm.em.fork(), team.teamId);
    const events = await makeEvents(app.orm.em.fork(), team.teamId, 8, (i) => ({
      cronId: [cron.id, other.id, null][i % 3] ?? null,
      status: i < 4 ? 'pending' : 'success',
    }));
    const byCron = expectBody(
      await app.request('GET', `/api/v1/events?cron_id=${cron.id}`, { key: team.key }),
      200,
      bodies.eventPage,
    );
    const ofCron = events.filter((event) => event.cronId === cron.id);
    expect(byCron.data.map((event) => event.id).sort()).toEqual(ofCron.map((event) => event.id).sort());
    expect(byCron.pagination.total).toBe(ofCron.length);

    const both = expectBody(
      await app.request('GET', `/api/v1/events?cron_id=${cron.id}&status=success`, { key: team.key }),
      200,
      bodies.eventPage,
    );
    const expected = ofCron.filter((event) => event.status === 'success').map((event) => event.id);
    expect(both.data.map((event) => event.id).sort()).toEqual(expected.sort());
  });

  it('returns an empty page for a cron without events', async () => {
    const team = await app.createTeam();
    const page = expectBody(
      await app.request('GET', `/api/v1/events?cron_id=${randomUUID()}`, { key: team.key }),
      200,
      bodies.eventPage,
    );
    expect(page.data).toEqual([]);
  });

  it.each([
    ['status', 'PENDING'],
    ['status', 'done'],
    ['status', ''],
    ['cron_id', 'not-a-uuid'],
    ['cron_id', ''],
    ['cron_id', '123'],
  ])('returns 400 VALIDATION_ERROR when %s=%j', async (name, value) => {
    const team = await app.createTeam();
    const issues = expectValidationError(
      await app.request('GET', `/api/v1/events?${name}=${value}`, { key: team.key }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([[name]]);
  });
});
