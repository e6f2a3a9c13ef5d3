import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeEvents } from '../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../test/msw.js';
import { isLastPage } from './paginate.js';

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

/** Serves `total` events like the API: newest first, and a 500 for a page past the end. */
function serveEvents(total: number) {
  const all = makeEvents(total);
  const pages: string[] = [];
  server.use(
    http.get(`${BASE_URL}/api/v1/events`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      pages.push(query.toString());
      const page = Number(query.get('page') ?? 0);
      const limit = Number(query.get('limit') ?? 100);
      if (page > 0 && page * limit >= total) {
        return HttpResponse.json(
          { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Page out of range' } },
          { status: 500 },
        );
      }
      return HttpResponse.json({
        data: all.slice(page * limit, (page + 1) * limit),
        pagination: { page, limit, total },
      });
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
