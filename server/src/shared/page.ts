import { AppError } from '../errors.js';
import { isPageOutOfRange, outOfRangeMessage } from './pagination.rules.js';

/** One page of a list, with the total across all pages. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Refuses a page past the last item (500, as the API document says). Lists count first, so such a
 * page is answered without running a query with a huge offset. `details` holds the page asked for
 * and the total: the one thing that tells a client this 500 from a server failure, which it may
 * retry, while this one would fail again.
 */
export function assertPageInRange({ page, limit }: { page: number; limit: number }, total: number): void {
  if (isPageOutOfRange(page, limit, total)) {
    throw new AppError('INTERNAL_SERVER_ERROR', outOfRangeMessage(page, limit, total), {
      page,
      limit,
      total,
    });
  }
}
