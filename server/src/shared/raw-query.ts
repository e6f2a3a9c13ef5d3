import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlExecutor } from '@webhook-scheduler/scheduler';
import { CompiledQuery } from 'kysely';
import type { Pool, PoolClient } from 'pg';

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
 * run most often (a create, a read by id, the scheduler's outcomes), whose parsing and planning cost
 * PostgreSQL as much as their execution. Only for statements whose generic plan is as good as a plan
 * for the values, since PostgreSQL may settle on one generic plan (after five calls planned for their
 * values; never, while it costs the generic plan higher). Inside a transaction it runs as
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
 * {@link preparedQuery} always run with its generic plan, planned once per connection, for the
 * claims: in a backlog PostgreSQL kept planning them for their values, although their generic plans
 * read the same pages and ran faster (bench/README.md, bench/scale, 2026-12-01). The connection
 * forces generic plans (`plan_cache_mode`) for that statement only: for all its statements, it gave
 * the lists generic plans that took 240-285 ms a page. Two more round trips than
 * {@link preparedQuery} (the setting and its reset), and no transaction around the statement: a
 * claim's leases are committed by the claim itself, so a process stopped right after it holds no
 * row. Inside a transaction it runs as {@link rawQuery}, with the setting for that statement only.
 */
export async function genericPlanQuery<T>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  if (em.isInTransaction()) {
    await rawQuery(em, 'set local plan_cache_mode = force_generic_plan');
    const rows = await rawQuery<T>(em, sql, params);
    await rawQuery(em, 'set local plan_cache_mode to default');
    return rows;
  }
  const client = await (await poolOf(em)).connect();
  try {
    const rows = await runPrepared<T>(client, { sql, params, generic: true });
    client.release();
    return rows;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Runs a prepared call on `client`. A client whose call failed is to be closed, not given back: it
 * may still force generic plans.
 */
async function runPrepared<T>(client: PoolClient, { sql, params, generic }: PreparedCall): Promise<T[]> {
  const statement = { name: statementName(sql), text: sql, values: [...params] };
  if (!generic) return (await client.query(statement)).rows as T[];
  await client.query('set plan_cache_mode = force_generic_plan');
  const { rows } = await client.query(statement);
  await client.query('reset plan_cache_mode');
  return rows as T[];
}

/** A statement and its parameters, for {@link prepareOnEveryConnection}. */
export interface PreparedCall {
  sql: string;
  params: readonly unknown[];
  /** Run as {@link genericPlanQuery} runs it. */
  generic?: boolean;
}

/**
 * Runs `calls` as {@link preparedQuery} (or {@link genericPlanQuery}, when `generic`) on every
 * connection of the pool, each connection held until all ran theirs, so that none runs another's.
 * A backend prepares each named statement anew and reads the catalog of each table, index and
 * trigger function it touches on first use.
 */
export async function prepareOnEveryConnection(em: EntityManager, calls: PreparedCall[]): Promise<void> {
  const pool = await poolOf(em);
  const opened = await Promise.allSettled(
    Array.from({ length: pool.options.max ?? 1 }, () => pool.connect()),
  );
  // Those opened are given back whatever failed (closed, if a call of theirs failed): a connection
  // refused (max_connections) must not keep the others out of the pool.
  const clients = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = new Set<PoolClient>();
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (const call of calls) {
          await runPrepared(client, call).catch((error: unknown) => {
            failed.add(client);
            throw error;
          });
        }
      }),
    );
  } finally {
    for (const client of clients) client.release(failed.has(client));
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
