import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { ClientConfig } from 'pg';
import { migrations } from './migrations/index.js';

/**
 * Creates the ORM over one PostgreSQL database; `connection` is passed to `pg` as is (TLS included).
 * It has no entities: every owner persists in bound SQL (shared/raw-query.ts), and MikroORM is the
 * connection, the transactions and the migrations.
 */
export async function createOrm(connection: ClientConfig, poolSize: number): Promise<MikroORM> {
  return MikroORM.init({
    entities: [],
    dbName: connection.database ?? 'postgres',
    ...(connection.host ? { host: connection.host } : {}),
    ...(connection.port ? { port: connection.port } : {}),
    ...(connection.user ? { user: connection.user } : {}),
    ...(typeof connection.password === 'string' ? { password: connection.password } : {}),
    driverOptions: {
      ...connection,
      application_name: 'webhook-scheduler',
      // Short statements on large tables: JIT compiling one costs more (~80 ms measured on a claim
      // over 160,000 pending events) than it could ever save.
      options: [connection.options, '-c jit=off'].filter(Boolean).join(' '),
    },
    // Every connection opened stays open: one closed after a quiet spell is opened again cold by the
    // next burst, and a new backend plans each statement and compiles each trigger anew (a first
    // create ~30 ms against ~1.5). After 45 s idle the first 200 requests' p99 was 252–315 ms
    // with idle connections closed, 64–87 ms kept (bench/README.md, bench/after-idle).
    pool: { min: poolSize, max: poolSize },
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      // Each migration in a transaction of its own, not all of them in one: a migration that rewrites
      // a large table in batches or builds an index concurrently (isTransactional() false) runs
      // outside one, so the table stays writable, and a crash keeps the migrations that completed.
      transactional: true,
      allOrNothing: false,
      silent: true,
      snapshot: false,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ensureDatabase: false,
    // Without this, MikroORM refuses to start with no entities.
    discovery: { warnWhenNoEntities: false },
  });
}
