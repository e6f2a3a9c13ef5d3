import type { Pagination } from './contract-types.js';
import { type WebhookSchedulerError, isWebhookSchedulerError } from './errors/webhook-scheduler-error.js';

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

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Whether an error is the API's answer to a page past the end of a list: a 500
 * `INTERNAL_SERVER_ERROR` whose details are the page asked for, its size and the list's total, with
 * the page starting at or after the total. Asked again, the API answers the same, so the client does
 * not retry it. Any other 500 is a server failure, which it does.
 */
export function isPastTheEnd(error: Pick<WebhookSchedulerError, 'status' | 'code' | 'details'>): boolean {
  const { status, code, details } = error;
  if (status !== 500 || code !== 'INTERNAL_SERVER_ERROR') return false;
  if (typeof details !== 'object' || Array.isArray(details)) return false;
  const { page, limit, total } = details;
  if (!isCount(page) || !isCount(limit) || !isCount(total)) return false;
  return page > 0 && page * limit >= total;
}

/**
 * Yields every item of a list, fetching each page only when the previous one is used up. A list
 * that shrinks while it is walked (items deleted between two pages) can leave the next page past
 * its end: the walk then ends there, with what it has yielded.
 */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 0; ; page += 1) {
    let fetched: Page<T>;
    try {
      fetched = await fetchPage(page);
    } catch (error) {
      if (isWebhookSchedulerError(error) && isPastTheEnd(error)) return;
      throw error;
    }
    yield* fetched.data;
    if (isLastPage(fetched.pagination, fetched.data.length)) return;
  }
}
