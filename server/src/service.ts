import { randomBytes } from 'node:crypto';
import { type RequestListener, type Server, createServer } from 'node:http';
import { hostname } from 'node:os';
import express, { type Express } from 'express';
import pg from 'pg';
import type { Logger } from 'pino';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import {
  type AttemptTracing,
  Timers,
  createSender,
  createScheduler,
  type Scheduler,
} from '@webhook-scheduler/scheduler';
import { createApp } from './app.js';
import { createKeyAuthenticator } from './auth/key-authenticator.js';
import { KeyCache } from './auth/key-cache.js';
import { DEFAULT_AUTH_LIMITS } from './auth/throttle.rules.js';
import type { Config, HttpLimits } from './config.js';
import { builtDashboardDir } from './dashboard/spa.router.js';
import { type Database, openDatabase } from './db/database.js';
import { ApiProcessRegistry } from './limits/api-processes.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { cachedTeamLimits } from './limits/team-limits-cache.js';
import { type BackgroundJobs, startBackgroundJobs } from './background-jobs.js';
import { metricsRoute, opsRoutes } from './http/ops.router.js';
import { createEventStore } from './scheduler-store/event-store.js';
import type { Scheduling } from './shared/scheduling-deps.js';
import { ensureDefaultTeam } from './teams/teams.service.js';
import { startTracing } from './tracing/tracing.js';
import { createPasswordHasher } from './users/password.js';
import { USER_AGENT } from './user-agent.js';

/** Which parts of the service a process runs. */
export type Role = 'all' | 'api' | 'scheduler';

/** A running service and how to stop it gracefully. */
export interface RunningService {
  url: string;
  /** The `default` team and its key when this start created them (first start on an empty database). */
  firstKey: { key: string; teamId: string } | undefined;
  stop(): Promise<void>;
}

/** Starts the service by role over the configured database. */
export async function startService(config: Config, role: Role, logger: Logger): Promise<RunningService> {
  const db = await openDatabase(config.database, {
    poolSize: config.databasePoolSize,
    log: (message) => logger.info(message),
  });
  let stopping = false;
  let scheduler: { instance: Scheduler; pool: pg.Pool } | undefined;
  let keyCache: KeyCache | undefined;
  let processes: ApiProcessRegistry | undefined;
  let metricsServer: Server | undefined;
  let background: BackgroundJobs | undefined;
  const tracing = await startTracing(config.tracing, logger);
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const scheduling: Scheduling = {
      timers: new Timers({ shards: config.scheduler.slotShards }),
      cronHorizonMs: config.scheduler.cronHorizonMs,
      webhookTimeoutMs: config.webhook.timeoutMs,
    };
    const isReady = async () => !stopping && (await db.orm.isConnected());
    if (role !== 'api') {
      scheduler = await startScheduler(config, db, scheduling, registry, logger, tracing?.attempts);
      background = startBackgroundJobs(db, config, registry, logger);
    }

    let firstKey: RunningService['firstKey'];
    let app: Express;
    const metrics = { serve: config.metricsPort === undefined, token: config.metricsToken };
    if (role === 'scheduler') {
      app = express().use(opsRoutes({ isReady, registry, metrics }));
    } else {
      const created = await ensureDefaultTeam(db.orm.em.fork(), new Date());
      firstKey = created && { key: created.key, teamId: created.apiKey.teamId };
      keyCache = await startKeyCache(db, logger);
      processes = new ApiProcessRegistry(db.orm, logger);
      await processes.start();
      app = createApp({
        orm: db.orm,
        now: () => new Date(),
        scheduling,
        logger,
        authenticate: createKeyAuthenticator(db.orm, keyCache, logger),
        forgetKeys: (hashes) => keyCache?.forget(hashes),
        bodyLimitBytes: config.bodyLimitBytes,
        destinationMaxInFlight: config.scheduler.destinationMaxInFlight,
        isReady,
        registry,
        trustProxy: config.trustProxy,
        corsOrigins: config.corsOrigins,
        dashboardDir: builtDashboardDir(),
        passwords: createPasswordHasher(),
        limits: DEFAULT_AUTH_LIMITS,
        accounts: config.accounts,
        teamLimits: cachedTeamLimits(db.orm, config.teamLimits),
        rateLimiter: new RateLimiter(processes),
        metrics,
        tracing: tracing?.requestSpans,
      });
    }
    const { server, url } = await listen(app, config);
    if (config.metricsPort !== undefined) {
      const metricsApp = express().get('/metrics', metricsRoute(registry, config.metricsToken));
      metricsServer = (await listen(metricsApp, { ...config, port: config.metricsPort })).server;
    }
    const dropped = new Counter({
      name: 'http_connections_dropped_total',
      help: 'Connections closed on arrival because HTTP_MAX_CONNECTIONS were already open',
      registers: [registry],
    });
    server.on('drop', () => dropped.inc());
    logger.info({ url, role }, 'listening');
    return {
      url,
      firstKey,
      stop: async () => {
        stopping = true;
        await closeServer(server, config.shutdownTimeoutMs);
        if (metricsServer) await closeServer(metricsServer, 1000);
        await processes?.stop();
        await keyCache?.close();
        await background?.stop();
        if (scheduler) {
          await scheduler.instance.drain(config.shutdownTimeoutMs);
          await scheduler.pool.end();
        }
        await db.close();
        await tracing?.shutdown();
      },
    };
  } catch (error) {
    // A start that failed half-way (e.g. the port is taken) stops what it started, so the process exits.
    await background?.stop();
    await scheduler?.instance.drain(1000).catch(() => {});
    await scheduler?.pool.end();
    await keyCache?.close();
    await processes?.stop();
    metricsServer?.close();
    await db.close();
    await tracing?.shutdown();
    throw error;
  }
}

async function startScheduler(
  config: Config,
  db: Database,
  scheduling: Scheduling,
  registry: Registry,
  logger: Logger,
  tracing: AttemptTracing | undefined,
) {
  const log = logger.child({ component: 'scheduler' });
  // Kept open (no idle timeout), like the store's pool: each new connection is a PostgreSQL backend
  // started anew, ~17–25 ms of its CPU (bench/README.md, bench/idle, 2026-12-01).
  const pool = new pg.Pool({
    ...db.connection,
    max: 4,
    idleTimeoutMillis: 0,
    application_name: 'webhook-scheduler-timer',
  });
  // An idle client's error (e.g. PostgreSQL restarting) must not crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'timer connection lost'));
  const instance = createScheduler({
    pool,
    store: createEventStore(db.orm, scheduling.timers, { circuitFailures: config.scheduler.circuitFailures }),
    timers: scheduling.timers,
    sender: createSender({
      timeoutMs: config.webhook.timeoutMs,
      allowPrivateTargets: config.webhook.allowPrivateTargets,
      allowedHosts: config.webhook.allowedHosts,
      userAgent: USER_AGENT,
    }),
    logger: log,
    registry,
    name: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    webhookTimeoutMs: config.webhook.timeoutMs,
    missedToleranceMs: config.missedEventToleranceMs,
    leaseGraceMs: config.scheduler.leaseGraceMs,
    tracing,
    tuning: {
      maxInFlight: config.scheduler.maxInFlight,
      teamMaxInFlight: config.scheduler.teamMaxInFlight,
      destinationMaxInFlight: config.scheduler.destinationMaxInFlight,
      circuitFailures: config.scheduler.circuitFailures,
      cronHorizonMs: config.scheduler.cronHorizonMs,
    },
  });
  await instance.start();
  return { instance, pool };
}

/** The key cache, or none when LISTEN is unavailable (e.g. behind a transaction-pooling proxy). */
async function startKeyCache(db: Database, logger: Logger): Promise<KeyCache | undefined> {
  const cache = new KeyCache(db.connection, logger);
  try {
    await cache.start();
    return cache;
  } catch (error) {
    logger.warn({ err: error }, 'API keys are not cached: LISTEN is unavailable');
    await cache.close();
    return undefined;
  }
}

/**
 * Node enforces the headers and request timeouts only when this timer ticks: its default (30 s) held
 * partial headers ~89 s against a 60 s timeout. A tick of a quarter of the timeout (at most 1 s)
 * cuts a slow client off soon after its deadline.
 */
function checkingIntervalMs(http: HttpLimits): number {
  return Math.max(10, Math.min(1000, Math.floor(http.headersTimeoutMs / 4)));
}

/** Serves `app` on the configured address with the configured limits on slow and idle clients. */
export async function listen(
  app: RequestListener,
  where: Pick<Config, 'port' | 'host' | 'http'>,
): Promise<{ server: Server; url: string }> {
  const { http } = where;
  const server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(http),
    },
    app,
  );
  server.maxConnections = http.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const host = where.host === '0.0.0.0' || where.host === '::' ? 'localhost' : where.host;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** Stops accepting connections, lets in-flight requests finish (bounded), then closes the rest. */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}
