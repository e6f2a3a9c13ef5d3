import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createOrm } from '../src/db/orm.js';
import { setTeamLimits } from '../src/limits/team-limits.service.js';
import type { LimitOverrides } from '../src/limits/team-limits.rules.js';
import { createApiKey, createTeam } from '../src/teams/teams.service.js';
import {
  type ApiResponse,
  type RequestOptions,
  type TestDatabase,
  createTestDatabase,
  databaseUrl,
  sendRequest,
} from './harness.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type ServiceProcess, listeningUrl, startServiceProcess } from './service-process.js';

/** API processes and one scheduler process of the built service, on one test database. */
export interface ProcessCluster {
  apis: ServiceProcess[];
  scheduler: ServiceProcess;
  /** Sends the n-th request to the n-th API process in turn, as a load balancer would. */
  request(n: number, method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Everything the processes printed. */
  output(): string;
  /** Stops every process (SIGTERM, by its PID) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `apis` `--role api` processes and a `--role scheduler` process on `db`. */
export async function startProcessCluster(
  db: TestDatabase,
  { apis = 2, env = {} }: { apis?: number; env?: Record<string, string> } = {},
): Promise<ProcessCluster> {
  const url = databaseUrl(db.connection);
  const started: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((service) => service.stop()));
  };
  try {
    for (let i = 0; i < apis; i++) started.push(await startServiceProcess('api', url, env));
    const scheduler = await startServiceProcess('scheduler', url, env);
    started.push(scheduler);
    const apiProcesses = started.slice(0, apis);
    const urls = apiProcesses.map(listeningUrl);
    return {
      apis: apiProcesses,
      scheduler,
      request: (n, method, path, options) => sendRequest(urls[n % urls.length] ?? '', method, path, options),
      output: () => started.map((service) => service.output()).join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A test file's database and receiver, made before its tests, and its processes, stopped after them. */
export interface ClusterFixture {
  readonly db: TestDatabase;
  readonly receiver: Receiver;
  start(options?: Parameters<typeof startProcessCluster>[1]): Promise<ProcessCluster>;
}

/** Registers the hooks of a {@link ClusterFixture} in the calling test file. */
export function clusterFixture(): ClusterFixture {
  let db: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  let cluster: ProcessCluster | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
    await db?.drop();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fixture is made in beforeAll');
    return value;
  };
  return {
    get db() {
      return made(db);
    },
    get receiver() {
      return made(receiver);
    },
    start: async (options) => (cluster = await startProcessCluster(made(db), options)),
  };
}

/** A team with its own limits and `keys` API keys, made directly in the database. */
export async function teamWithKeys(
  db: TestDatabase,
  keys: number,
  limits: LimitOverrides = {},
): Promise<{ teamId: string; keys: string[] }> {
  const orm = await createOrm(db.connection, 1);
  try {
    const team = await createTeam(orm.em.fork(), 'load', new Date());
    if (Object.keys(limits).length > 0) await setTeamLimits(orm.em.fork(), team.id, limits, new Date());
    const made: string[] = [];
    for (let i = 0; i < keys; i++)
      made.push((await createApiKey(orm.em.fork(), team.id, { name: `key ${i}` }, new Date())).key);
    return { teamId: team.id, keys: made };
  } finally {
    await orm.close();
  }
}

/** Runs SQL on the test database over a connection of its own. */
export async function query<T>(db: TestDatabase, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(db.connection);
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Deadlocks PostgreSQL detected in the test database so far. Backends report them when they go
 * idle or exit: read it after the processes that may have had one stopped.
 */
export async function deadlocksSoFar(db: TestDatabase): Promise<number> {
  const client = new pg.Client(db.connection);
  await client.connect();
  try {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ deadlocks: string }>(
      'select deadlocks from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]?.deadlocks ?? 0);
  } finally {
    await client.end();
  }
}

/** Runs `count` tasks, at most `concurrency` at once, and returns their results in order. */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (n: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      results[n] = await task(n);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
