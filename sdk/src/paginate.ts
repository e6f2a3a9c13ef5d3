import type { Pagination } from './contract-types.js';

/** One page of a list: its items and where it sits. */
export interface Page<T> {
  /** The items of this page, newest first. */
  data: T[];
  /** The page number, its size and the number of items across all pages. */
  pagination: Pagination;
}

/**
 * Whether no page follows this one. The API answers a page past the end with a 500, so the
 * iteration stops on the totals rather than on an empty page.
 */
export function isLastPage(pagination: Pagination, received: number): boolean {
  return received === 0 || (pagination.page + 1) * pagination.limit >= pagination.total;
}

/** Yields every item of a list, fetching each page only when the previous one is used up. */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 0; ; page += 1) {
    const { data, pagination } = await fetchPage(page);
    yield* data;
    if (isLastPage(pagination, data.length)) return;
  }
}
