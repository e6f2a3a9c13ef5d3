import type { MikroORM } from '@mikro-orm/postgresql';
import pg, { type ClientConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import type { DatabaseTarget } from '../config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { createOrm } from './orm.js';

/** The database of the embedded PostgreSQL. */
const EMBEDDED_DATABASE = 'webhook_scheduler';
// Any fixed number: it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 4_311_120_261;

/** An open database: the ORM, the settings it connects with, and how to close both. */
export interface Database {
  orm: MikroORM;
  connection: ClientConfig;
  close(): Promise<void>;
}

/** Opens the configured database (starting the embedded PostgreSQL if that is the target) and migrates it. */
export async function openDatabase(
  target: DatabaseTarget,
  options: { poolSize: number; log: (message: string) => void },
): Promise<Database> {
  let stopEmbedded = async (): Promise<void> => {};
  let connection: ClientConfig;
  if (target.kind === 'external') {
    connection = parseIntoClientConfig(target.url);
  } else {
    const embedded = await startEmbeddedPostgres(target.dataDir, options.log);
    stopEmbedded = () => embedded.stop();
    connection = { ...embedded.connection, database: EMBEDDED_DATABASE };
    await ensureDatabaseExists(embedded.connection, EMBEDDED_DATABASE);
  }
  try {
    const orm = await createOrm(connection, options.poolSize);
    await migrate(orm, connection);
    return {
      orm,
      connection,
      close: async () => {
        await orm.close();
        await stopEmbedded();
      },
    };
  } catch (error) {
    await stopEmbedded();
    throw error;
  }
}

/** Applies pending migrations; concurrent starts take turns on an advisory lock. */
export async function migrate(orm: MikroORM, connection: ClientConfig): Promise<void> {
  const lock = new pg.Client(connection);
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await orm.migrator.up();
  } finally {
    await lock.end();
  }
}

/** Creates `database` on the server unless it exists. */
export async function ensureDatabaseExists(admin: ClientConfig, database: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount) return;
    await client.query(`create database ${client.escapeIdentifier(database)}`).catch((error: unknown) => {
      // 42P04 duplicate_database: another process created it first.
      if ((error as { code?: string }).code !== '42P04') throw error;
    });
  } finally {
    await client.end();
  }
}
