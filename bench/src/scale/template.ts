// The seeded template and the run databases cloned from it.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { databaseUrl } from './cluster.ts';
import { CONSISTENCY_STATEMENTS, type SeedSize, seedSize, seedStatements } from './seed-sql.ts';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(process.env.BENCH_SERVICE_ROOT ?? root, 'server/bin/webhook-scheduler.js');
export const RUN_DATABASE = 'scale_run';
/** One template per size, so a quick small run does not replace the big one. */
const templateName = (size: SeedSize) => `scale_t_${size.finished}_${size.crons}`;

export async function withClient<T>(database: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl(database) });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

const log = (message: string) =>
  console.error(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** Runs the service's migrations on `database` and says how long they took. */
export async function migrate(database: string): Promise<number> {
  const started = performance.now();
  await run(process.execPath, [bin, 'migrate'], {
    env: { ...process.env, DATABASE_URL: databaseUrl(database), LOG_LEVEL: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return Math.round(performance.now() - started);
}

async function seededSize(name: string): Promise<SeedSize | undefined> {
  return withClient('postgres', async (db) => {
    const { rows } = await db.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length === 0) return undefined;
    return withClient(name, async (template) => {
      const marker = await template
        .query<{ size: SeedSize }>(
          `select size from bench_seed where exists (select 1 from pg_tables where tablename = 'bench_seed')`,
        )
        .catch(() => ({ rows: [] as { size: SeedSize }[] }));
      return marker.rows[0]?.size;
    });
  });
}

/** Builds the template for `scale` unless one of that size exists; returns its size. */
export async function ensureTemplate(scale: number): Promise<SeedSize> {
  const size = seedSize(scale);
  const TEMPLATE = templateName(size);
  const existing = await seededSize(TEMPLATE);
  // jsonb orders an object's keys its own way: compare field by field.
  const same =
    existing && Object.entries(size).every(([key, value]) => existing[key as keyof SeedSize] === value);
  if (same) return size;
  log(`seeding ${JSON.stringify(size)} (once; later runs clone it)`);
  await withClient('postgres', async (db) => {
    await db.query(`drop database if exists ${TEMPLATE} with (force)`);
    await db.query(`create database ${TEMPLATE}`);
  });
  await timed('migrations', () => migrate(TEMPLATE));
  await withClient(TEMPLATE, async (db) => {
    const { rows: indexes } = await db.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
       where tablename = 'events' and indexname <> 'events_pkey'`,
    );
    for (const index of indexes) await db.query(`drop index ${index.name}`);
    for (const [what, sql] of seedStatements(size)) await timed(what, () => db.query(sql));
    await timed('indexes', async () => {
      await db.query("set maintenance_work_mem = '1GB'");
      for (const index of indexes) await db.query(index.definition);
    });
    for (const [what, sql] of CONSISTENCY_STATEMENTS) await timed(what, () => db.query(sql));
    await timed('vacuum (freeze, analyze)', () => db.query('vacuum (freeze, analyze)'));
  });
  return size;
}

/** A fresh run database cloned from the template (a file copy: minutes, not a re-seed). */
export async function cloneTemplate(size: SeedSize): Promise<void> {
  await timed('clone of the template', () =>
    withClient('postgres', async (db) => {
      await db.query(`drop database if exists ${RUN_DATABASE} with (force)`);
      await db.query(`create database ${RUN_DATABASE} template ${templateName(size)} strategy file_copy`);
    }),
  );
}
