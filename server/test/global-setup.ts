import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClientConfig } from 'pg';
import { adminQuery } from './admin-query.js';
import { parseIntoClientConfig } from 'pg-connection-string';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/db/database.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { createOrm } from '../src/db/orm.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection to a maintenance database of the test server, allowed to create databases. */
    adminConnection: ClientConfig;
    /** A migrated database every test file clones its own database from. */
    templateDatabase: string;
  }
}

/**
 * Starts one PostgreSQL for the whole run (embedded, or the server named by TEST_DATABASE_URL) and
 * migrates a template database; each test file then clones its own database from it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  let admin: ClientConfig;
  let stopServer = async (): Promise<void> => {};
  if (external) {
    admin = parseIntoClientConfig(external);
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wst-'));
    // mkdtemp makes it private; PostgreSQL may run as another user (root cannot run it).
    await chmod(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres(dataDir, () => {});
    admin = embedded.connection;
    stopServer = async () => {
      await embedded.stop({ force: true });
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const template = `wst_template_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `create database ${template}`);
  const connection = { ...admin, database: template };
  const orm = await createOrm(connection, 2);
  await migrate(orm, connection);
  await orm.close();

  project.provide('adminConnection', admin);
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(admin, `drop database if exists ${template} with (force)`);
    await stopServer();
  };
}
