import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { createKeyAuthenticator } from './auth/key-authenticator.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { ensureDefaultTeam } from './teams/teams.service.js';

/** Which parts of the service a process runs. */
export type Role = 'all' | 'api' | 'scheduler';

/** A running service and how to stop it gracefully. */
export interface RunningService {
  url: string | undefined;
  /** The key of the `default` team when this start created it (first start on an empty database). */
  firstKey: string | undefined;
  stop(): Promise<void>;
}

/** Starts the service by role over the configured database. */
export async function startService(config: Config, role: Role, logger: Logger): Promise<RunningService> {
  const db = await openDatabase(config.database, {
    poolSize: config.databasePoolSize,
    log: (message) => logger.info(message),
  });
  try {
    let http: { server: Server; url: string; firstKey: string | undefined } | undefined;
    let stopping = false;
    if (role !== 'scheduler') http = await startApi(config, db, logger, () => !stopping);
    return {
      url: http?.url,
      firstKey: http?.firstKey,
      stop: async () => {
        stopping = true;
        if (http) await closeServer(http.server, config.shutdownTimeoutMs);
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function startApi(config: Config, db: Database, logger: Logger, accepting: () => boolean) {
  const now = () => new Date();
  const firstKey = await ensureDefaultTeam(db.orm.em.fork(), now());
  const app = createApp({
    orm: db.orm,
    now,
    logger,
    authenticate: createKeyAuthenticator(db.orm, logger),
    bodyLimitBytes: config.bodyLimitBytes,
    isReady: async () => accepting() && (await db.orm.isConnected()),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url }, 'listening');
  return { server, url, firstKey: firstKey?.key };
}

/** Stops accepting connections, lets in-flight requests finish (bounded), then closes the rest. */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}
