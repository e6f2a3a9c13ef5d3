// How much of a table's indexes a statement read, from PostgreSQL's own counters: the plan tests'
// guard against a plan that reads more than it returns.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rawQuery } from '../src/shared/raw-query.js';

/** The entries returned by `table`'s indexes (`reads`) and their scans (`scans`) so far: a one-row count query. */
const indexReadsOf = (
  table: string,
): string => `select coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) as reads,
         coalesce(sum(pg_stat_get_xact_numscans(indexrelid)), 0) as scans
  from pg_index where indrelid = '${table}'::regclass`;

/**
 * What `work` returned, and how each column of `counts` (a one-row statistics query) grew meanwhile.
 * Counted as a difference within one transaction: a session's counts not yet reported include its
 * earlier transactions'.
 */
export async function countedDuring<T>(
  orm: MikroORM,
  counts: string,
  work: (tx: EntityManager) => Promise<T>,
): Promise<{ result: T; grew: Record<string, number> }> {
  return orm.em.fork().transactional(async (tx) => {
    const [before] = await rawQuery<Record<string, string>>(tx, counts);
    const result = await work(tx);
    const [after] = await rawQuery<Record<string, string>>(tx, counts);
    const grew = Object.fromEntries(
      Object.entries(after ?? {}).map(([column, value]) => [
        column,
        Number(value) - Number(before?.[column]),
      ]),
    );
    return { result, grew };
  });
}

/**
 * What `work` returned, with the pages of `index` it read. The entries an index returns do not count
 * those a scan steps over: a condition the index cannot stop at (a row comparison's later columns)
 * filters entries inside the index, page after page, and returns none of them.
 */
export async function indexPages<T>(
  orm: MikroORM,
  index: string,
  work: (tx: EntityManager) => Promise<T>,
): Promise<{ result: T; pages: number }> {
  const { result, grew } = await countedDuring(
    orm,
    `select pg_stat_get_xact_blocks_fetched('${index}'::regclass) as pages`,
    work,
  );
  return { result, pages: grew.pages ?? Number.NaN };
}

/** What `work` returned, with the entries of `table`'s indexes it read and their scans. */
export async function indexReads<T>(
  orm: MikroORM,
  table: string,
  work: (tx: EntityManager) => Promise<T>,
): Promise<{ result: T; reads: number; scans: number }> {
  const { result, grew } = await countedDuring(orm, indexReadsOf(table), work);
  return { result, reads: grew.reads ?? Number.NaN, scans: grew.scans ?? Number.NaN };
}
