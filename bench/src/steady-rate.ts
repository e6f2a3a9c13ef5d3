// bench/steady-rate: what a delivery costs in CPU, the service's and PostgreSQL's, at a steady rate
// below the machine's limit: one `all` process on a fresh embedded PostgreSQL, events created through
// the batch route ahead of time, due at STEADY_RATE a second for STEADY_SECONDS, to one fast receiver.
// bench/delivery measures the limit, where every batch is full; here the fixed cost of each statement
// and job counts too. Usage: npm run steady-rate -w bench  (BENCH_SERVICE_ROOT: another checkout;
// STEADY_RESULT: a suffix for the results file).
import type pg from 'pg';
import { Pool } from 'undici';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import {
  freshDataDir,
  portReceiverStats,
  printedKey,
  saveReport,
  startPortReceivers,
  startService,
  waitFor,
} from './processes.ts';
import { connectDb } from './seed.ts';

const RATE = Number(process.env.STEADY_RATE ?? 500);
const SECONDS = Number(process.env.STEADY_SECONDS ?? 60);
const RUNS = Number(process.env.STEADY_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3590);
const RECEIVER_PORT = 31_000;
/** Created through the API before the first falls due; the window's CPU counts none of that. */
const LEAD_MS = 25_000;
const PAYLOAD = { order: 'x'.repeat(900) };

async function createEvents(base: string, key: string, firstDueAt: number): Promise<void> {
  const pool = new Pool(base, { connections: 4 });
  const total = RATE * SECONDS;
  try {
    for (let from = 0; from < total; from += 1000) {
      const events = Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({
        webhook_url: `http://127.0.0.1:${RECEIVER_PORT}/steady/${from + k}`,
        scheduled_at: new Date(firstDueAt + ((from + k) * 1000) / RATE).toISOString(),
        payload: PAYLOAD,
      }));
      const response = await pool.request({
        method: 'POST',
        path: '/api/v1/events/batch',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      const text = await response.body.text();
      if (response.statusCode !== 201) throw new Error(`batch refused: ${response.statusCode} ${text}`);
    }
  } finally {
    await pool.close();
  }
}

/** The database's transactions and shared-buffer reads so far, from PostgreSQL's statistics. */
async function databaseWork(db: pg.Client) {
  const { rows } = await db.query<{ transactions: string; buffers: string }>(
    `select xact_commit + xact_rollback as transactions, blks_hit + blks_read as buffers
     from pg_stat_database where datname = current_database()`,
  );
  return { transactions: Number(rows[0]!.transactions), buffers: Number(rows[0]!.buffers) };
}

async function run() {
  const data = await freshDataDir();
  const service = await startService('all', PORT, data.dir);
  try {
    const key = await printedKey(service);
    const db = await connectDb(data.dir);
    const postgres = await postmasterPid(data.dir);
    const firstDueAt = Date.now() + LEAD_MS;
    await createEvents(`http://127.0.0.1:${PORT}`, key, firstDueAt);
    if (Date.now() > firstDueAt) throw new Error('the events were not all created before the first fell due');
    await new Promise((resolve) => setTimeout(resolve, firstDueAt - Date.now()));
    const cpuNow = async () => ({
      service: await treeCpuMs(service.child.pid!),
      postgres: await treeCpuMs(postgres),
      work: await databaseWork(db),
    });
    const before = await cpuNow();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const after = await cpuNow();
    const total = RATE * SECONDS;
    const { rows } = await waitFor(async () => {
      const result = await db.query<{ ended: string; p50: number; p99: number }>(
        `select count(*) as ended,
                  percentile_cont(0.5) within group (order by extract(epoch from executed_at - scheduled_at) * 1000) as p50,
                  percentile_cont(0.99) within group (order by extract(epoch from executed_at - scheduled_at) * 1000) as p99
           from events where status = 'success' and retry_of is null`,
      );
      return Number(result.rows[0]?.ended) === total ? result : undefined;
    }, 'every delivery recorded');
    await db.end();
    const received = await portReceiverStats(RECEIVER_PORT);
    const perDelivery = (ms: number) => Math.round((ms * 1000) / total);
    return {
      deliveries: total,
      duplicates: received.duplicates,
      cpuMicrosecondsPerDelivery: {
        service: perDelivery(after.service - before.service),
        postgres: perDelivery(after.postgres - before.postgres),
      },
      // What each delivery's share of PostgreSQL's CPU went to: its statements' transactions and pages.
      perThousandDeliveries: {
        transactions: Math.round(((after.work.transactions - before.work.transactions) * 1000) / total),
        buffers: Math.round(((after.work.buffers - before.work.buffers) * 1000) / total),
      },
      latenessMs: { p50: Math.round(rows[0]!.p50), p99: Math.round(rows[0]!.p99) },
    };
  } finally {
    await service.stop();
    await data.remove();
  }
}

const receivers = await startPortReceivers(RECEIVER_PORT, 1, 0);
try {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  const report = {
    date: new Date().toISOString(),
    service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
    rate: RATE,
    seconds: SECONDS,
    runs,
  };
  const suffix = process.env.STEADY_RESULT ? `-${process.env.STEADY_RESULT}` : '';
  await saveReport(`steady-rate${suffix}`, report);
} finally {
  await receivers.stop();
}
