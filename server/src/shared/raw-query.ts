import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlExecutor } from '@webhook-scheduler/scheduler';
import { CompiledQuery } from 'kysely';

/**
 * Runs SQL with bound `$n` parameters on the entity manager's connection, inside its transaction
 * when it has one. For the scheduler's batched statements, where MikroORM's `execute` would inline
 * every parameter into the SQL text.
 */
export async function rawQuery<T>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const result = await em.getKysely().executeQuery<T>(CompiledQuery.raw(sql, [...params]));
  return [...result.rows];
}

/** MikroORM's `pg` type parsers leave timestamps as text; raw rows convert them here. */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The entity manager's connection (its transaction when it has one) for the scheduler's own statements. */
export function sqlExecutor(em: EntityManager): SqlExecutor {
  return { query: (sql, params) => rawQuery(em, sql, params) };
}
