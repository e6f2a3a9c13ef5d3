import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlExecutor } from '@webhook-scheduler/scheduler';
import { CompiledQuery } from 'kysely';
import type { Pool } from 'pg';

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

const pools = new WeakMap<object, Promise<Pool>>();

function poolOf(em: EntityManager): Promise<Pool> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient();
    pools.set(connection, pool);
  }
  return pool;
}

const names = new Map<string, string>();

/** A name per statement text: the same text shares one prepared statement on each connection. */
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `ws_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * {@link rawQuery} as a named prepared statement, parsed once per connection, for the statements
 * run most often (a create, a read by id, the scheduler's claims and outcomes), whose parsing and
 * planning cost PostgreSQL as much as their execution. Only for statements whose generic plan is as
 * good as a plan for the values, since PostgreSQL may settle on one generic plan (after five calls
 * planned for their values; never, while it costs the generic plan higher: see
 * {@link unseenByPlanner}). Forcing generic plans (`plan_cache_mode`) is no way out: it
 * holds for every statement of the connection, the unnamed ones too, and gave the lists generic
 * plans that took 240-285 ms a page there (bench/README.md). Inside a transaction it runs as
 * {@link rawQuery}, on the transaction's connection.
 */
export async function preparedQuery<T>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  if (em.isInTransaction()) return rawQuery<T>(em, sql, params);
  const name = statementName(sql);
  const result = await (await poolOf(em)).query({ name, text: sql, values: [...params] });
  return result.rows as T[];
}

/**
 * Parameter `param` as a value the planner cannot see (a scalar subquery, run once before the
 * statement), so that a plan for the values costs what the generic plan costs and PostgreSQL settles
 * on the generic one after five calls. Seen, a slot claim's one-second range and look-ahead made its
 * plans for the values look three times cheaper than the generic plan (cost 576 against 1,991 with
 * 2M events pending), so PostgreSQL planned every slot claim anew (1.8 ms) for a plan that ran no
 * faster (bench/README.md, bench/scale, 2026-11-30).
 */
export const unseenByPlanner = (param: string, type: string): string => `(select ${param}::${type})`;

/** A statement and its parameters, for {@link prepareOnEveryConnection}. */
export interface PreparedCall {
  sql: string;
  params: readonly unknown[];
}

/**
 * Runs `calls` as {@link preparedQuery} on every connection of the pool, each connection held until
 * all ran theirs, so that none runs another's. A backend prepares each named statement anew and
 * reads the catalog of each table, index and trigger function it touches on first use.
 */
export async function prepareOnEveryConnection(em: EntityManager, calls: PreparedCall[]): Promise<void> {
  const pool = await poolOf(em);
  const opened = await Promise.allSettled(
    Array.from({ length: pool.options.max ?? 1 }, () => pool.connect()),
  );
  // Those opened are given back whatever failed: a connection refused (max_connections) must not
  // keep the others out of the pool.
  const clients = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (const { sql, params } of calls) {
          await client.query({ name: statementName(sql), text: sql, values: [...params] });
        }
      }),
    );
  } finally {
    for (const client of clients) client.release();
  }
  const refused = opened.find((result) => result.status === 'rejected');
  if (refused) throw new Error('could not open every connection of the pool', { cause: refused.reason });
}

/** `$from, …, $(from + count - 1)`: the placeholders of one row's values. */
export const placeholders = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** MikroORM's `pg` type parsers leave timestamps as text; raw rows convert them here. */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** {@link asDate} of a nullable timestamp column. */
export function asDateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : asDate(value);
}

/** A JSON column's parameter: SQL NULL for null (a `null` payload means no body). */
export const jsonParam = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/**
 * Whether a statement failed with the SQLSTATE `code`. A failed {@link rawQuery} throws `pg`'s own
 * error (or one whose `cause` is it), not one of MikroORM's exceptions.
 */
function failedWith(error: unknown, code: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as Error & { code?: unknown }).code === code) return true;
  }
  return false;
}

/** Whether a statement failed on a unique index. */
export const isUniqueViolation = (error: unknown): boolean => failedWith(error, '23505');

/** Whether a write failed because a row it refers to does not exist (a foreign key). */
export const isForeignKeyViolation = (error: unknown): boolean => failedWith(error, '23503');

/** The entity manager's connection (its transaction when it has one) for the scheduler's own statements. */
export function sqlExecutor(em: EntityManager): SqlExecutor {
  return { query: (sql, params) => rawQuery(em, sql, params) };
}
