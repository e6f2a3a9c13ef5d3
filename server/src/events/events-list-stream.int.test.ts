import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody } from '../../test/expect.js';
import { makeEvents } from '../../test/factories.js';
import { type TestApp, startTestApp } from '../../test/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('GET /api/v1/events of large payloads', () => {
  it('is streamed chunk by chunk (no Content-Length) and equals the page, newest first', async () => {
    const team = await app.createTeam();
    const payload = { blob: 'x'.repeat(60_000) };
    const made = await makeEvents(app.orm.em.fork(), team.teamId, 60, (i) => ({
      payload,
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
    }));
    const response = await app.request('GET', '/api/v1/events?limit=1000', { key: team.key });
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const page = expectBody(response, 200, bodies.eventPage);
    expect(page.pagination).toEqual({ page: 0, limit: 1000, total: 60 });
    expect(page.data.map((event) => event.id)).toEqual(made.map((event) => event.id).reverse());
    expect(page.data.every((event) => JSON.stringify(event.payload) === JSON.stringify(payload))).toBe(true);
  });

  it('answers an empty page and a page in the middle the same way as before', async () => {
    const team = await app.createTeam();
    expect(
      expectBody(await app.request('GET', '/api/v1/events', { key: team.key }), 200, bodies.eventPage),
    ).toEqual({
      data: [],
      pagination: { page: 0, limit: 100, total: 0 },
    });
    const made = await makeEvents(app.orm.em.fork(), team.teamId, 30, (i) => ({
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
    }));
    const middle = expectBody(
      await app.request('GET', '/api/v1/events?page=1&limit=12', { key: team.key }),
      200,
      bodies.eventPage,
    );
    expect(middle.data.map((event) => event.id)).toEqual(
      made
        .map((e) => e.id)
        .reverse()
        .slice(12, 24),
    );
  });
});

describe('GET /api/v1/events across chunks of 100 rows', () => {
  it('keeps the order and the page boundaries, ties on created_at included', async () => {
    const team = await app.createTeam();
    // 250 events, three per created_at second: the id breaks the ties.
    const made = await makeEvents(app.orm.em.fork(), team.teamId, 250, (i) => ({
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, Math.floor(i / 3))),
    }));
    const expected = [...made]
      .sort(
        (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
      )
      .map((event) => event.id);
    const all = expectBody(
      await app.request('GET', '/api/v1/events?limit=1000', { key: team.key }),
      200,
      bodies.eventPage,
    );
    expect(all.data.map((event) => event.id)).toEqual(expected);
    const second = expectBody(
      await app.request('GET', '/api/v1/events?page=1&limit=120', { key: team.key }),
      200,
      bodies.eventPage,
    );
    expect(second.data.map((event) => event.id)).toEqual(expected.slice(120, 240));
  });
});
