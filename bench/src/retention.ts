// bench/retention: API latency and delivery lateness while retention deletes 1,000,000 finished events
// of one team. Usage: npm run retention -w bench (BENCH_EXPIRED=100000 for a shorter run)
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import { storedOrigin } from './stored-origin.ts';
import {
  firstKey,
  freshDataDir,
  percentile,
  saveReport,
  startReceiver,
  startService,
  waitFor,
} from './processes.ts';

const EXPIRED = Number(process.env.BENCH_EXPIRED ?? 1_000_000);
const KEPT = Number(process.env.BENCH_KEPT ?? 100_000);
const PORT = Number(process.env.BENCH_PORT ?? 3400);
/** The same load on the same data for this long with retention off, minutes before: the control. */
const CONTROL_MS = Number(process.env.BENCH_CONTROL_S ?? 60) * 1000;
/** Requests per second of each kind, during removal and in the control window without it. */
const RATES = { list: 50, get: 200, create: 50 };
/** The first seconds after a service starts (cold code, new connections) are left out of the figures. */
const WARM_UP_MS = 4000;
/** Delivered events are scheduled this far ahead of their creation. */
const LEAD_MS = 2000;

interface Sample {
  kind: keyof typeof RATES;
  at: number;
  ms: number;
  status: number;
}

function connect(dataDir: string): pg.Client {
  return new pg.Client({ host: path.join(dataDir, 'run'), user: 'postgres', database: 'webhook_scheduler' });
}

/**
 * 1,000,000 finished events that ended 40 days ago (one in ten with a retry attempt: 90% originals,
 * 10% retries), and `KEPT` pending events far in the future for the lists and GETs.
 */
async function seed(db: pg.Client, team: string): Promise<string[]> {
  const originals = Math.round(EXPIRED * 0.9);
  const { column, value, params } = await storedOrigin(db, 'https://example.com/hook', 3);
  await db.query(
    `insert into events (id, team_id, retry_of, attempt, scheduled_at, executed_at, status, webhook_url, method,
                         payload, response_status, response_body, response_duration, created_at, updated_at${column})
     select md5('o' || n)::uuid, $1, null, 0, t, t, 'success', 'https://example.com/hook', 'POST',
            jsonb_build_object('n', n), 200, 'ok', 12, t - interval '1 minute', t${value}
     from generate_series(1, $2::int) as n, lateral (select now() - interval '40 days' - n * interval '1 second' as t) as s`,
    [team, originals, ...params],
  );
  await db.query(
    `insert into events (id, team_id, retry_of, attempt, scheduled_at, executed_at, status, webhook_url, method,
                         payload, response_status, response_body, response_duration, created_at, updated_at${column})
     select gen_random_uuid(), $1, md5('o' || n)::uuid, 1, t, t, 'success', 'https://example.com/hook', 'POST',
            jsonb_build_object('n', n), 200, 'ok', 12, t, t${value}
     from generate_series(1, $2::int) as n, lateral (select now() - interval '40 days' - n * interval '1 second' as t) as s`,
    [team, EXPIRED - originals, ...params],
  );
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at${column})
     select gen_random_uuid(), $1, 0, now() + interval '300 days', 'pending', 'https://example.com/hook', 'POST',
            jsonb_build_object('n', n), now() - n * interval '1 second', now()${value}
     from generate_series(1, $2::int) as n`,
    [team, KEPT, ...params],
  );
  await db.query('vacuum analyze events');
  await db.query('checkpoint');
  const { rows } = await db.query<{ id: string }>(
    `select id from events where status = 'pending' order by random() limit 10000`,
  );
  return rows.map((row) => row.id);
}

/** Sends `rate` requests per second, each on time whatever the previous ones do (open loop). */
function paced(rate: number, send: () => Promise<number>, samples: Sample[], kind: Sample['kind']) {
  const started = performance.now();
  let sent = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const tick = () => {
    if (stopped) return;
    const due = Math.floor(((performance.now() - started) * rate) / 1000);
    for (; sent < due; sent++) {
      const at = Date.now();
      const begin = performance.now();
      const request = send().then(
        (status) => void samples.push({ kind, at, ms: performance.now() - begin, status }),
        () => void samples.push({ kind, at, ms: performance.now() - begin, status: 0 }),
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    setTimeout(tick, 2);
  };
  tick();
  return async () => {
    stopped = true;
    await Promise.all(inFlight);
  };
}

async function deletedSoFar(metrics: Pool): Promise<number> {
  const response = await metrics.request({ method: 'GET', path: '/metrics' });
  const text = await response.body.text();
  return Number(/^events_deleted_total (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Lists, GETs by id and creates of events due `LEAD_MS` later, each kind at its rate in `RATES`. */
function startLoad(key: string, ids: string[], receiverUrl: string) {
  // Enough connections that a slow answer never holds back the next request (no queue in the client).
  const api = new Pool(`http://127.0.0.1:${PORT}`, { connections: 512 });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const status = async (options: Parameters<Pool['request']>[0]) => {
    const response = await api.request(options);
    await response.body.dump();
    return response.statusCode;
  };
  const randomId = () => ids[Math.floor(Math.random() * ids.length)] ?? '';
  const samples: Sample[] = [];
  const create = () =>
    status({
      method: 'POST',
      path: '/api/v1/events',
      headers,
      body: JSON.stringify({
        webhook_url: `${receiverUrl}/retention`,
        scheduled_at: new Date(Date.now() + LEAD_MS).toISOString(),
        payload: { bench: true },
      }),
    });
  const stops = [
    paced(
      RATES.list,
      () => status({ method: 'GET', path: '/api/v1/events?limit=100', headers }),
      samples,
      'list',
    ),
    paced(
      RATES.get,
      () => status({ method: 'GET', path: `/api/v1/events/${randomId()}`, headers }),
      samples,
      'get',
    ),
    paced(RATES.create, create, samples, 'create'),
  ];
  return {
    samples,
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
      await api.close();
    },
  };
}

/** CPU ms used so far by PostgreSQL and by the service process, at a wall-clock instant. */
type CpuReading = { at: number; postgres: number; service: number };
async function cpuNow(dataDir: string, servicePid: number): Promise<CpuReading> {
  return {
    at: Date.now(),
    postgres: await treeCpuMs(await postmasterPid(dataDir)),
    service: await treeCpuMs(servicePid),
  };
}

/** Each process's CPU between two readings, as a share of one core. */
const cpuShare = (from: CpuReading, to: CpuReading) => ({
  postgresPercent: Math.round(((to.postgres - from.postgres) / (to.at - from.at)) * 100),
  servicePercent: Math.round(((to.service - from.service) / (to.at - from.at)) * 100),
});

function summary(samples: Sample[]) {
  const ms = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    requests: samples.length,
    non2xx: samples.filter((sample) => sample.status < 200 || sample.status > 299).length,
    p50: round(percentile(ms, 50)),
    p99: round(percentile(ms, 99)),
    max: round(ms.at(-1) ?? NaN),
  };
}

const byKind = (samples: Sample[]) =>
  Object.fromEntries(
    (Object.keys(RATES) as Sample['kind'][]).map((kind) => [
      kind,
      summary(samples.filter((sample) => sample.kind === kind)),
    ]),
  );

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const data = await freshDataDir();
const receiver = await startReceiver();
// The first start keeps events forever: the seed must not shrink while it is written, nor in the control.
let service = await startService('all', PORT, data.dir, { EVENT_RETENTION: '0' });
try {
  const key = firstKey(service);
  let db = connect(data.dir);
  await db.connect();
  const team = (await db.query<{ id: string }>('select team_id as id from api_keys limit 1')).rows[0]!.id;
  const seedStarted = Date.now();
  const ids = await seed(db, team);
  console.log(
    `seeded ${EXPIRED} finished and ${KEPT} pending events in ${(Date.now() - seedStarted) / 1000} s`,
  );
  await db.end();

  // Control: the same load on the same data, retention off.
  const control = startLoad(key, ids, receiver.url);
  await pause(WARM_UP_MS);
  const controlCpu = await cpuNow(data.dir, service.child.pid ?? 0);
  const controlStarted = Date.now();
  await pause(CONTROL_MS);
  const controlEnded = Date.now();
  const controlCpuEnd = await cpuNow(data.dir, service.child.pid ?? 0);
  await control.stop();
  await service.stop();

  // The second start keeps 30 days: its retention job starts 10 s after boot, while the load runs.
  service = await startService('all', PORT, data.dir, { EVENT_RETENTION: '30d' });
  const load = startLoad(key, ids, receiver.url);
  const metrics = new Pool(`http://127.0.0.1:${PORT}`, { connections: 1 });
  let removalStarted = 0;
  let removalCpu = await cpuNow(data.dir, service.child.pid ?? 0);
  const removalEnded = await waitFor(
    async () => {
      const deleted = await deletedSoFar(metrics);
      if (deleted > 0 && !removalStarted) {
        removalStarted = Date.now();
        removalCpu = await cpuNow(data.dir, service.child.pid ?? 0);
      }
      return deleted >= EXPIRED ? Date.now() : undefined;
    },
    'retention to delete every expired event',
    3_600_000,
  );
  const removalCpuEnd = await cpuNow(data.dir, service.child.pid ?? 0);
  // Deliveries created during removal are due up to LEAD_MS after it ended.
  await pause(LEAD_MS + 1000);
  await load.stop();
  await metrics.close();

  db = connect(data.dir);
  await db.connect();
  await waitFor(async () => {
    const { rows } = await db.query<{ n: string }>(
      `select count(*) as n from events where webhook_url = $1 and status in ('pending', 'processing')`,
      [`${receiver.url}/retention`],
    );
    return Number(rows[0]?.n) === 0 ? true : undefined;
  }, 'the deliveries');
  const lateness = await db.query<{ scheduled: Date; late: string; status: string }>(
    `select scheduled_at as scheduled, extract(epoch from executed_at - scheduled_at) * 1000 as late, status
     from events where webhook_url = $1`,
    [`${receiver.url}/retention`],
  );
  const totals = await db.query<{ listed: string; counted: string }>(
    `select (select sum(n) from event_totals where scope = $1) as listed,
            (select count(*) from events where team_id = $1) as counted`,
    [team],
  );
  await db.end();

  /** Lateness of the deliveries due between two instants (due = created + LEAD_MS). */
  const lateMs = (from: number, to: number) => {
    const late = lateness.rows
      .filter((row) => {
        const at = new Date(row.scheduled).getTime() - LEAD_MS;
        return at >= from && at <= to;
      })
      .map((row) => Number(row.late))
      .sort((a, b) => a - b);
    return {
      deliveries: late.length,
      p50: Math.round(percentile(late, 50)),
      p99: Math.round(percentile(late, 99)),
      max: Math.round(late.at(-1) ?? NaN),
    };
  };
  const within = (samples: Sample[], from: number, to: number) =>
    samples.filter((sample) => sample.at >= from && sample.at <= to);
  const removalSeconds = (removalEnded - removalStarted) / 1000;
  const report = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    loadAverage: os.loadavg()[0],
    expired: EXPIRED,
    kept: KEPT,
    rates: RATES,
    removalSeconds,
    deletedPerSecond: Math.round(EXPIRED / removalSeconds),
    controlSeconds: (controlEnded - controlStarted) / 1000,
    api: {
      control: byKind(within(control.samples, controlStarted, controlEnded)),
      during: byKind(within(load.samples, removalStarted, removalEnded)),
    },
    lateness: {
      control: lateMs(controlStarted, controlEnded),
      during: lateMs(removalStarted, removalEnded),
    },
    // Each process's CPU as a share of one core, in the control window and during removal.
    cpu: { control: cpuShare(controlCpu, controlCpuEnd), during: cpuShare(removalCpu, removalCpuEnd) },
    failedDeliveries: lateness.rows.filter((row) => row.status !== 'success').length,
    totalExact: totals.rows[0]?.listed === totals.rows[0]?.counted,
  };
  await saveReport('retention', report);
} finally {
  if (process.env.BENCH_LOG_LEVEL) console.error(service.output());
  await service.stop();
  await receiver.stop();
  await data.remove();
}
