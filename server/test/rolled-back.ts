import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/** What `work` returned, run in a transaction rolled back: each case of a test sees the same rows. */
export async function rolledBack<T>(orm: MikroORM, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const rollback = new Error('rolled back');
  let result: T | undefined;
  await orm.em
    .fork()
    .transactional(async (tx) => {
      result = await work(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}
