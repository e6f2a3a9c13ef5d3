import { createHash } from 'node:crypto';
import type { Pool, QueryConfig } from 'pg';

/** What PostgreSQL answers when a table's columns changed under a prepared `select *`. */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * `pool` for Agenda's backend, whose statements with parameters go as named prepared statements:
 * parsed once per connection and planned generically after five calls, where PostgreSQL parses and
 * plans an unnamed one at every call. Agenda's lock statement runs every `processEvery` for each job
 * name, idle or not, and its planning cost twice its execution (bench/README.md, bench/idle,
 * 2026-12-01). Its generic plan reads every job of the name not yet due: the timer jobs of the next
 * five minutes, at most 600 with the default `SLOT_SHARDS` (0.1 ms a call). Only with more shards
 * and every second busy does it cost more than planning for the values (4,800 jobs at 16 shards:
 * 0.67 ms against 0.14 ms); planning for the values (`plan_cache_mode`) kept a third of the gain at
 * idle, so the generic plan stays. Agenda builds its texts from fixed fragments, so the statements per connection are few. A text
 * whose prepared form fails because `agenda_jobs` changed columns under its `*` (a migration beside
 * a running process) goes unnamed from then on.
 */
export function preparingPool(pool: Pool): Pool {
  const unnamed = new Set<string>();
  const query = async (text: unknown, values?: unknown): Promise<unknown> => {
    if (typeof text !== 'string' || !Array.isArray(values) || unnamed.has(text)) {
      return pool.query(text as string, values as unknown[]);
    }
    const config: QueryConfig = { name: statementName(text), text, values };
    try {
      return await pool.query(config);
    } catch (error) {
      if ((error as { code?: string }).code !== RESULT_TYPE_CHANGED) throw error;
      unnamed.add(text);
      return pool.query(text, values);
    }
  };
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'query') return query;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const statementName = (text: string): string =>
  `agenda_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
