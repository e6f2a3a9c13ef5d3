import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { isPageOutOfRange, outOfRangeMessage } from './pagination.rules.js';

/** One page of a list, with the total across all pages. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Lists `where` newest first (created_at, then id, both descending, so pages are stable).
 * Counts first: an out-of-range page is answered without running a query with a huge offset.
 */
export async function listNewestFirst<T extends { id: string; createdAt: Date }>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  { page, limit }: { page: number; limit: number },
): Promise<Page<T>> {
  const total = await em.count(entity, where);
  if (isPageOutOfRange(page, limit, total)) {
    throw new AppError('INTERNAL_SERVER_ERROR', outOfRangeMessage(page, limit, total));
  }
  if (total === 0) return { items: [], total };
  const items = await em.find(entity, where, {
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] as never,
    limit,
    offset: page * limit,
  });
  return { items, total };
}
