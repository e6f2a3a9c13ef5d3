// bench/after-idle: the API's first requests after a quiet spell against the same requests warm. A
// fresh service (`--role all`, defaults) is warmed with 2,000 requests, then AFTER_IDLE_ROUNDS times
// left alone for AFTER_IDLE_S seconds (45; the pool used to close a connection idle for 30 s) and sent
// 200 requests, then 200 more. Requests: a create, a list of pending events and two GETs by id in
// turn, AFTER_IDLE_CONCURRENCY (10, the pool's size) at a time. Reported per round: latency spread of
// both bursts and the service's database connections before the first.
// Usage: npm run after-idle -w bench   (AFTER_IDLE_RESULT=<suffix>; BENCH_SERVICE_ROOT=<checkout>
// measures another build)
import os from 'node:os';
import { startBenchService } from './destinations/bench-service.ts';
import { percentile, saveReport, spread } from './processes.ts';

const IDLE_S = Number(process.env.AFTER_IDLE_S ?? 45);
const ROUNDS = Number(process.env.AFTER_IDLE_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.AFTER_IDLE_CONCURRENCY ?? 10);
const BURST = 200;

const bench = await startBenchService();
const ids: string[] = [];

async function request(n: number): Promise<number> {
  const started = performance.now();
  if (n % 4 === 0 || ids.length === 0) {
    const { status, body } = await bench.api('POST', '/events', {
      webhook_url: 'https://example.com/hook',
      scheduled_at: new Date(Date.now() + 86_400_000 + n * 1000).toISOString(),
      payload: { n },
    });
    if (status !== 201) throw new Error(`POST /events answered ${status}`);
    ids.push((body as { data: { id: string } }).data.id);
  } else if (n % 4 === 1) {
    if ((await bench.api('GET', '/events?status=pending&limit=50')).status !== 200) throw new Error('list');
  } else if ((await bench.api('GET', `/events/${ids[n % ids.length]}`)).status !== 200)
    throw new Error('get');
  return performance.now() - started;
}

async function burst(count: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) latencies.push(await request(next++));
    }),
  );
  return latencies;
}

async function connections(): Promise<number> {
  const { rows } = await bench.db.query<{ n: string }>(
    `select count(*) as n from pg_stat_activity where application_name = 'webhook-scheduler'`,
  );
  return Number(rows[0]?.n);
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((x, y) => x - y),
    50,
  );

try {
  await burst(2000);
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const open = await connections();
    const first = spread(await burst(BURST));
    const warm = spread(await burst(BURST));
    console.log(JSON.stringify({ round, open, first, warm }));
    rounds.push({ connectionsAfterIdle: open, afterIdle: first, warm });
  }
  const report = {
    date: new Date().toISOString(),
    machine: {
      cores: os.availableParallelism(),
      loadAvgAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
    },
    service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
    idleSeconds: IDLE_S,
    concurrency: CONCURRENCY,
    rounds,
    medianP99: {
      afterIdle: median(rounds.map((r) => r.afterIdle.p99)),
      warm: median(rounds.map((r) => r.warm.p99)),
    },
  };
  const suffix = process.env.AFTER_IDLE_RESULT ? `-${process.env.AFTER_IDLE_RESULT}` : '';
  await saveReport(`after-idle${suffix}`, report);
} finally {
  await bench.stop();
}
