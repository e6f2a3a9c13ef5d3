import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg, { type ClientConfig } from 'pg';
import { adminQuery, dropDatabase } from './admin-query.js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import {
  Timers,
  createSender,
  createScheduler,
  type Scheduler,
  type SchedulerTuning,
  type Sender,
} from '@webhook-scheduler/scheduler';
import { createEventStore } from '../src/scheduler-store/event-store.js';
import { inject } from 'vitest';
import { createApp } from '../src/app.js';
import { createKeyAuthenticator } from '../src/auth/key-authenticator.js';
import { KeyCache } from '../src/auth/key-cache.js';
import type { AuthLimits } from '../src/auth/throttle.rules.js';
import { type AccountPolicy, type HttpLimits, loadConfig } from '../src/config.js';
import { builtDashboardDir } from '../src/dashboard/spa.router.js';
import { createOrm } from '../src/db/orm.js';
import { cachedTeamLimits } from '../src/limits/team-limits-cache.js';
import { SINGLE_PROCESS } from '../src/limits/api-processes.js';
import { RateLimiter } from '../src/limits/rate-limiter.js';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { listen } from '../src/service.js';
import { createApiKey, createTeam } from '../src/teams/teams.service.js';
import { createPasswordHasher } from '../src/users/password.js';

/** A database of its own for one test file, cloned from the migrated template. */
export interface TestDatabase {
  connection: ClientConfig;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = inject('adminConnection');
  const name = `wst_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `create database ${name} template ${inject('templateDatabase')}`);
  return {
    connection: { ...admin, database: name },
    drop: async () => {
      await dropDatabase(admin, name);
    },
  };
}

/** A libpq-style URL for the test database; a unix socket goes in the `host` query parameter. */
export function databaseUrl(connection: ClientConfig): string {
  const user = encodeURIComponent(connection.user ?? 'postgres');
  const password =
    typeof connection.password === 'string' ? `:${encodeURIComponent(connection.password)}` : '';
  const database = encodeURIComponent(connection.database ?? 'postgres');
  const host = connection.host ?? 'localhost';
  const port = String(connection.port ?? 5432);
  if (host.startsWith('/')) {
    return `postgresql://${user}${password}@/${database}?host=${encodeURIComponent(host)}&port=${port}`;
  }
  return `postgresql://${user}${password}@${host}:${port}/${database}`;
}

/** What a response looked like: status, body (parsed when JSON, text otherwise) and headers. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A team with a working key. */
export interface TestTeam {
  teamId: string;
  key: string;
  keyId: string;
}

/** How to send one request. */
export interface RequestOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string | null;
  /**
   * A string is sent as is, a Uint8Array as raw bytes without a content type, anything else as JSON.
   * Strings and JSON default to `content-type: application/json`.
   */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The real app on an ephemeral loopback port over its own database. */
export interface TestApp {
  url: string;
  orm: MikroORM;
  db: TestDatabase;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  createTeam(name?: string): Promise<TestTeam>;
  /** Runs SQL on the test database (e.g. to put an event in a given state). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Runs a scheduler in the same process as the app, on the same database. */
export interface TestSchedulerOptions {
  tuning?: Partial<SchedulerTuning>;
  webhookTimeoutMs?: number;
  missedToleranceMs?: number;
  sender?: Sender;
  circuitFailures?: number;
  circuitCooldownMs?: number;
}

const TEST_TUNING: Partial<SchedulerTuning> = { reconcileEveryMs: 500, backlogEveryMs: 250 };
// Sign-ups and sign-ins in tests: scrypt as in production, at a cost that keeps the suite fast.
const TEST_PASSWORDS = createPasswordHasher({ N: 1024, r: 8, p: 1 });
// Test files sign many users up from 127.0.0.1; the limits' own tests pass tighter ones.
const LOOSE = { hits: 100_000, windowMs: 60_000 };
const TEST_LIMITS: AuthLimits = { signInPerEmail: LOOSE, signInPerAddress: LOOSE, signUpPerAddress: LOOSE };
// Test files send bursts from one key; the rate limit's own tests set tighter ones.
const TEST_RATE = { requests_per_second: 100_000, request_burst: 100_000 };

/** Sends one request to `baseUrl` and reads the whole response. */
export async function sendRequest(
  baseUrl: string,
  method: string,
  path: string,
  { key, body, headers = {} }: RequestOptions = {},
): Promise<ApiResponse> {
  const sent: Record<string, string> = { ...headers };
  const init: RequestInit = { method, headers: sent };
  if (key) sent.authorization = `Bearer ${key}`;
  if (body instanceof Uint8Array) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    sent['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, init);
  const text = await response.text();
  const isJson = /\bjson\b/.test(response.headers.get('content-type') ?? '');
  return {
    status: response.status,
    body: isJson && text ? JSON.parse(text) : text,
    text,
    headers: response.headers,
  };
}

/**
 * Starts the app over a fresh database, or over `database` (which the caller then owns and drops).
 */
export async function startTestApp(
  options: {
    now?: () => Date;
    bodyLimitBytes?: number;
    database?: TestDatabase;
    scheduler?: TestSchedulerOptions;
    limits?: Partial<AuthLimits>;
    trustProxy?: boolean | number | string;
    /** Origins allowed to call /api/v1 from a page (CORS); none by default, as in the service. */
    corsOrigins?: string[];
    /** Limits on slow and idle clients; the service's defaults otherwise. */
    http?: Partial<HttpLimits>;
    /** Default team limits: the service's own defaults, with a rate limit no test file reaches by accident. */
    teamLimits?: Partial<TeamLimits>;
    /** How long a team's limits are cached (0: read on every request, so an override applies at once). */
    teamLimitsTtlMs?: number;
    /** `/metrics` access (served and open by default). */
    metricsToken?: string;
    /** Sign-up mode and teams per user: the service's defaults otherwise. */
    accounts?: Partial<AccountPolicy>;
  } = {},
): Promise<TestApp> {
  const db = options.database ?? (await createTestDatabase());
  const ownsDatabase = !options.database;
  const orm = await createOrm(db.connection, 5);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const now = options.now ?? (() => new Date());
  const timers = new Timers({ shards: 2 });
  const keyCache = new KeyCache(db.connection, logger);
  await keyCache.start();
  const scheduler = options.scheduler
    ? await startTestScheduler(db, orm, timers, options.scheduler)
    : undefined;
  const app = createApp({
    orm,
    now,
    scheduling: { timers, cronHorizonMs: 60_000, webhookTimeoutMs: webhookTimeoutOf(options.scheduler) },
    registry: new Registry(),
    logger,
    authenticate: createKeyAuthenticator(orm, keyCache, logger),
    forgetKeys: (hashes) => keyCache.forget(hashes),
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    destinationMaxInFlight: 50,
    isReady: () => orm.isConnected(),
    trustProxy: options.trustProxy ?? false,
    corsOrigins: options.corsOrigins ?? [],
    dashboardDir: builtDashboardDir(),
    passwords: TEST_PASSWORDS,
    limits: { ...TEST_LIMITS, ...options.limits },
    accounts: { ...loadConfig({}).accounts, ...options.accounts },
    teamLimits: cachedTeamLimits(
      orm,
      { ...loadConfig({}).teamLimits, ...TEST_RATE, ...options.teamLimits },
      { ttlMs: options.teamLimitsTtlMs ?? 0 },
    ),
    rateLimiter: new RateLimiter(SINGLE_PROCESS),
    metrics: { serve: true, token: options.metricsToken },
  });
  const { server, url } = await listen(app, {
    port: 0,
    host: '127.0.0.1',
    http: { ...loadConfig({}).http, ...options.http },
  });

  return {
    url,
    orm,
    db,
    request: (method, path, requestOptions) => sendRequest(url, method, path, requestOptions),
    createTeam: async (name = 'team') => {
      const em = orm.em.fork();
      const team = await createTeam(em, name, new Date());
      const { apiKey, key } = await createApiKey(em, team.id, { name: 'test' }, new Date());
      return { teamId: team.id, key, keyId: apiKey.id };
    },
    sql: async <T>(query: string, params: unknown[] = []) => {
      const client = new pg.Client(db.connection);
      await client.connect();
      try {
        return (await client.query(query, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await scheduler?.stop();
      await keyCache.close();
      await orm.close();
      if (ownsDatabase) await db.drop();
    },
  };
}

/** The test scheduler's `WEBHOOK_TIMEOUT_MS`, which the test API checks `timeout_ms` against too. */
const webhookTimeoutOf = (options: TestSchedulerOptions | undefined) => options?.webhookTimeoutMs ?? 5000;

export async function startTestScheduler(
  db: TestDatabase,
  orm: MikroORM,
  timers: Timers,
  options: TestSchedulerOptions,
): Promise<{ scheduler: Scheduler; stop(): Promise<void> }> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const pool = new pg.Pool({ ...db.connection, max: 4 });
  pool.on('error', () => {});
  const webhookTimeoutMs = webhookTimeoutOf(options);
  const scheduler = createScheduler({
    pool,
    // Test files share a receiver across cases that fail on purpose: its circuit opens only where a test asks.
    store: createEventStore(orm, timers, {
      circuitFailures: options.circuitFailures ?? 1_000_000,
      circuitCooldownMs: options.circuitCooldownMs,
    }),
    timers,
    sender:
      options.sender ??
      createSender({
        timeoutMs: webhookTimeoutMs,
        allowPrivateTargets: true,
        allowedHosts: [],
        userAgent: 'test',
      }),
    logger,
    registry: new Registry(),
    name: `test-${randomBytes(3).toString('hex')}`,
    webhookTimeoutMs,
    missedToleranceMs: options.missedToleranceMs ?? 3_600_000,
    tuning: { ...TEST_TUNING, circuitFailures: options.circuitFailures ?? 1_000_000, ...options.tuning },
  });
  await scheduler.start();
  return {
    scheduler,
    stop: async () => {
      await scheduler.drain(10_000);
      await pool.end();
    },
  };
}
