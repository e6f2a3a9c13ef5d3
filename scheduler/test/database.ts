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
      await onAdmin(`drop database if exists ${name} with (force)`);
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
