import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeEvents } from '../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../test/msw.js';
import { WebhookSchedulerError } from './index.js';
import { isLastPage, isPastTheEnd } from './paginate.js';

useMockApi();

describe('isLastPage', () => {
  it.each([
    [{ page: 0, limit: 100, total: 0 }, 0, true],
    [{ page: 0, limit: 100, total: 99 }, 99, true],
    [{ page: 0, limit: 100, total: 100 }, 100, true],
    [{ page: 0, limit: 100, total: 101 }, 100, false],
    [{ page: 1, limit: 100, total: 250 }, 100, false],
    [{ page: 2, limit: 100, total: 250 }, 50, true],
    [{ page: 3, limit: 1, total: 10 }, 0, true],
  ])('%o with %i items → %s', (pagination, received, expected) => {
    expect(isLastPage(pagination, received)).toBe(expected);
  });
});

describe('isPastTheEnd', () => {
  const pastTheEnd = (details: unknown, status = 500, code = 'INTERNAL_SERVER_ERROR') =>
    isPastTheEnd({ status, code, details } as Parameters<typeof isPastTheEnd>[0]);

  it.each([
    [{ page: 1, limit: 100, total: 100 }, true],
    [{ page: 3, limit: 100, total: 250 }, true],
    [{ page: 1, limit: 10, total: 0 }, true],
    [{ page: 2, limit: 100, total: 250 }, false],
    [{ page: 0, limit: 100, total: 0 }, false],
    [{ page: '3', limit: 100, total: 250 }, false],
    [{ page: 3, limit: 100 }, false],
    [[{ path: ['page'], message: 'x' }], false],
    [undefined, false],
  ])('%o → %s', (details, expected) => {
    expect(pastTheEnd(details)).toBe(expected);
  });

  it('is false for another status or code with the same details', () => {
    const details = { page: 3, limit: 100, total: 250 };
    expect(pastTheEnd(details, 503)).toBe(false);
    expect(pastTheEnd(details, 500, 'BAD_REQUEST')).toBe(false);
  });
});

/** The API's answer to a page past the end of a list. */
const pastTheEndAnswer = (page: number, limit: number, total: number) =>
  HttpResponse.json(
    {
      error: {
        code: 'INTERNAL_SERVER_ERROR',
        message: `Page ${page} is out of range: there are ${total} items, ${limit} per page`,
        details: { page, limit, total },
      },
    },
    { status: 500 },
  );

/**
 * Serves events like the API: newest first, and a 500 for a page past the end. `shrink` (called
 * after each page) gives how many of the first events are left: the others were deleted.
 */
function serveEvents(total: number, shrink: (served: number) => number = () => total) {
  const all = makeEvents(total);
  const pages: string[] = [];
  let left = total;
  server.use(
    http.get(`${BASE_URL}/api/v1/events`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      pages.push(query.toString());
      const page = Number(query.get('page') ?? 0);
      const limit = Number(query.get('limit') ?? 100);
      if (page > 0 && page * limit >= left) return pastTheEndAnswer(page, limit, left);
      const answer = HttpResponse.json({
        data: all.slice(0, left).slice(page * limit, (page + 1) * limit),
        pagination: { page, limit, total: left },
      });
      left = shrink(pages.length);
      return answer;
    }),
  );
  return { all, pages };
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('listAll', () => {
  it('yields every item across pages in order and stops at the last page', async () => {
    const { all, pages } = serveEvents(250);

    const items = await collect(testClient().events.listAll({ status: 'failed' }));

    expect(items.map((event) => event.id)).toEqual(all.map((event) => event.id));
    expect(pages).toEqual(['status=failed&page=0', 'status=failed&page=1', 'status=failed&page=2']);
  });

  it('does not request a page past the end when the total is a multiple of the limit', async () => {
    const { pages } = serveEvents(20);

    const items = await collect(testClient().events.listAll({ limit: 10 }));

    expect(items).toHaveLength(20);
    expect(pages).toEqual(['limit=10&page=0', 'limit=10&page=1']);
  });

  it('makes one request for an empty list', async () => {
    const { pages } = serveEvents(0);

    await expect(collect(testClient().events.listAll())).resolves.toEqual([]);
    expect(pages).toHaveLength(1);
  });

  it('fetches the next page only when the loop reaches it', async () => {
    const { pages } = serveEvents(30);
    const iterator = testClient().events.listAll({ limit: 10 });

    for await (const _event of iterator) break;
    expect(pages).toHaveLength(1);
  });

  it('ends cleanly, without retrying, when deletions leave the next page past the end', async () => {
    // 250 events; once the first page is served, all but 60 are deleted.
    const { all, pages } = serveEvents(250, () => 60);

    const items = await collect(testClient({ retry: { limit: 5, baseDelayMs: 1 } }).events.listAll());

    expect(items.map((event) => event.id)).toEqual(all.slice(0, 100).map((event) => event.id));
    expect(pages).toEqual(['page=0', 'page=1']);
  });

  it('ends on the partly filled page a shrinking list leaves', async () => {
    const { all, pages } = serveEvents(250, () => 150);

    const items = await collect(testClient().events.listAll());

    expect(items.map((event) => event.id)).toEqual(all.slice(0, 150).map((event) => event.id));
    expect(pages).toEqual(['page=0', 'page=1']);
  });

  it('retries a later page that fails with another 500, and rejects when it keeps failing', async () => {
    const pages: string[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/events`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        pages.push(String(page));
        if (page === 0) {
          return HttpResponse.json({ data: makeEvents(2), pagination: { page: 0, limit: 2, total: 4 } });
        }
        return HttpResponse.json(
          { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' } },
          { status: 500 },
        );
      }),
    );

    await expect(collect(testClient().events.listAll({ limit: 2 }))).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
    });
    expect(pages).toEqual(['0', '1', '1', '1']);
  });

  it('passes the signal to every page request', async () => {
    serveEvents(30);
    const controller = new AbortController();
    const iterator = testClient().events.listAll({ limit: 10 }, { signal: controller.signal });
    let seen = 0;

    const looping = (async () => {
      for await (const _event of iterator) {
        seen += 1;
        if (seen === 10) controller.abort();
      }
    })();

    await expect(looping).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBe(10);
  });
});

describe('list', () => {
  it('rejects a page past the end at once, with its details, without retrying it', async () => {
    const { pages } = serveEvents(20);

    const rejected = testClient({ retry: { limit: 5, baseDelayMs: 1 } }).events.list({ page: 3, limit: 10 });

    await expect(rejected).rejects.toBeInstanceOf(WebhookSchedulerError);
    await expect(rejected).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
      details: { page: 3, limit: 10, total: 20 },
    });
    expect(pages).toEqual(['page=3&limit=10']);
  });
});
