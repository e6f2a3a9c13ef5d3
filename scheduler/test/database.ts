import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { schedulerMigrations } from '../src/schema/migrations.js';

/** A database of its own for one test file, on the run's PostgreSQL (test/global-setup.ts). */
export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

async function onAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** How long a drop waits for the database's sessions to end on their own before it ends them. */
const SESSIONS_LEAVE_MS = 5000;

/**
 * Drops a database once its sessions have left, or ends those left after a few seconds. `pool.end()`
 * resolves before its connections have closed: a forced drop at once would end them with an error,
 * which a `pg.Pool` without an error listener throws as an uncaught exception.
 */
async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    const deadline = Date.now() + SESSIONS_LEAVE_MS;
    for (;;) {
      const { rows } = await client.query<{ sessions: number }>(
        'select count(*)::int as sessions from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]?.sessions === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

/** An empty database; `migrated` applies the scheduler's schema to it first. */
export async function createTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const name = `wss_${randomBytes(6).toString('hex')}`;
  await onAdmin(`create database ${name}`);
  const url = new URL(inject('adminUrl'));
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  if (migrated) await migrate(pool);
  return {
    url: url.toString(),
    pool,
    drop: async () => {
      await pool.end();
      await dropDatabase(name);
    },
  };
}

/** Runs the scheduler's migrations in order, each in its own transaction, as the service's migrator does. */
export async function migrate(pool: pg.Pool): Promise<void> {
  for (const migration of schedulerMigrations) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      for (const statement of migration.statements) await client.query(statement);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  }
}
