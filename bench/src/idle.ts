// bench/idle: what a running service costs with nothing to do: one `all` process on a fresh embedded
// PostgreSQL, left alone for IDLE_SECONDS after it settled; the CPU of the service's process tree
// and of PostgreSQL's (backends that ended in the window included), and the sessions PostgreSQL
// started meanwhile. Usage: npm run idle -w bench  (IDLE_RUNS, 3; BENCH_SERVICE_ROOT: another
// checkout; IDLE_RESULT: a suffix for the results file).
import type pg from 'pg';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import { freshDataDir, printedKey, saveReport, startService } from './processes.ts';
import { connectDb } from './seed.ts';

const SECONDS = Number(process.env.IDLE_SECONDS ?? 60);
const RUNS = Number(process.env.IDLE_RUNS ?? 3);
/** Past the start's own work: warm-up, the background jobs' first runs (10 s at most). */
const SETTLE_MS = 20_000;
const PORT = Number(process.env.BENCH_PORT ?? 3690);

async function sessions(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ sessions: string }>(
    'select sessions from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]!.sessions);
}

async function run() {
  const data = await freshDataDir();
  const service = await startService('all', PORT, data.dir);
  try {
    await printedKey(service);
    const db = await connectDb(data.dir);
    const postgres = await postmasterPid(data.dir);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const now = async () => ({
      service: await treeCpuMs(service.child.pid!),
      postgres: await treeCpuMs(postgres),
      sessions: await sessions(db),
    });
    const before = await now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const after = await now();
    await db.end();
    const perSecond = (ms: number) => Math.round((ms / SECONDS) * 10) / 10;
    return {
      cpuMsPerSecond: {
        service: perSecond(after.service - before.service),
        postgres: perSecond(after.postgres - before.postgres),
      },
      // This benchmark's own connection is one, opened before the window.
      sessionsStarted: after.sessions - before.sessions,
    };
  } finally {
    await service.stop();
    await data.remove();
  }
}

const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await run());
const suffix = process.env.IDLE_RESULT ? `-${process.env.IDLE_RESULT}` : '';
const report = {
  date: new Date().toISOString(),
  service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
  seconds: SECONDS,
  runs,
};
await saveReport(`idle${suffix}`, report);
