// bench/delivery: throughput and punctuality of the scheduler against a receiver process on loopback,
// next to the raw HTTP limit measured in the same run. Usage: npm run delivery -w bench
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Timers, newEventId } from '@webhook-scheduler/scheduler';
import type pg from 'pg';
import { Agent, request } from 'undici';
import { againstAims } from './aims.ts';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import { skipLockedFloor } from './floor.ts';
import {
  type Running,
  firstKey,
  freshDataDir,
  setupStatements,
  spread,
  startReceiver,
  startService,
  waitFor,
} from './processes.ts';
import { connectDb } from './seed.ts';
import { storedOrigin } from './stored-origin.ts';

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const PUNCTUALITY_EVENTS = 3000;
const PUNCTUALITY_SPREAD_MS = 10_000;
/** Time to create the punctuality events before the first falls due: ~3 s on a quiet machine. */
const PUNCTUALITY_LEAD_MS = 12_000;
const PORT = Number(process.env.BENCH_PORT ?? 3390);
// For experiments: skip the two-scheduler run.
const SET_UPS = (process.env.BENCH_SCHEDULERS ?? '1,2').split(',').map(Number) as (1 | 2)[];
/**
 * The delivery core's figures are taken with the teams' and destinations' shares lifted (one team,
 * one receiver); `BENCH_SHARES=default` runs with the defaults (bench/destinations compares the two).
 */
const SHARES: Record<string, string> =
  process.env.BENCH_SHARES === 'default'
    ? {}
    : { TEAM_MAX_IN_FLIGHT: '1000', DESTINATION_MAX_IN_FLIGHT: '1000' };

interface Setup {
  /** Processes whose CPU time is measured: the service processes, PostgreSQL, the receiver. */
  cpu: { service: number[]; postgres: number; receiver: number };
  db: pg.Client;
  teamId: string;
  key: string;
  apiUrl: string;
  processes: Running[];
}

/** All events due at one instant, inserted in bulk with their slot jobs; time until all are recorded. */
async function throughput(setup: Setup, receiverUrl: string) {
  const dueAt = new Date(Date.now() + 3000);
  const url = `${receiverUrl}/throughput`;
  const origin = await storedOrigin(setup.db, url, 5);
  // With the ids the service gives events (made in order, as a batch through the API would be).
  const ids = Array.from({ length: THROUGHPUT_EVENTS }, () => newEventId());
  await setup.db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at${origin.column})
     select id, $1, 0, $2, 'pending', $3, 'POST', '{"bench":true}'::jsonb, now(), now()${origin.value}
     from unnest($4::uuid[]) with ordinality as e(id, n) order by n`,
    [setup.teamId, dueAt, url, ids, ...origin.params],
  );
  const timers = new Timers({ shards: 2 });
  await timers.schedule(setup.db, [dueAt], new Date());
  const statsBefore = await databaseStats(setup.db);
  const cpuBefore = await cpuOf(setup.cpu);
  // The receiver is asked first: counting rows in the database while it works would add to the
  // CPU measured for PostgreSQL.
  await waitFor(
    async () => ((await peekReceiver(receiverUrl)).unique >= THROUGHPUT_EVENTS ? true : undefined),
    'the throughput calls',
    300_000,
  );
  const doneAt = await waitFor(
    async () => {
      const { rows } = await setup.db.query<{ n: string }>(
        `select count(*) as n from events where webhook_url = $1 and status in ('success', 'failed')`,
        [`${receiverUrl}/throughput`],
      );
      return Number(rows[0]?.n) >= THROUGHPUT_EVENTS ? Date.now() : undefined;
    },
    'the throughput events',
    300_000,
  );
  const { rows } = await setup.db.query<{ failed: string; first: Date; last: Date }>(
    `select count(*) filter (where status = 'failed') as failed, min(executed_at) as first, max(executed_at) as last
     from events where webhook_url = $1`,
    [`${receiverUrl}/throughput`],
  );
  const cpuAfter = await cpuOf(setup.cpu);
  // PostgreSQL publishes its counters up to a second late.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const statsAfter = await databaseStats(setup.db);
  const perDelivery = (key: keyof typeof cpuAfter) =>
    Math.round(((cpuAfter[key] - cpuBefore[key]) * 1000) / THROUGHPUT_EVENTS);
  const seconds = (doneAt - dueAt.getTime()) / 1000;
  const row = rows[0];
  return {
    cpuMicrosecondsPerDelivery: {
      service: perDelivery('service'),
      postgres: perDelivery('postgres'),
      receiver: perDelivery('receiver'),
    },
    perThousandDeliveries: perThousand(statsBefore, statsAfter),
    events: THROUGHPUT_EVENTS,
    recordedPerSecond: Math.round(THROUGHPUT_EVENTS / seconds),
    sentPerSecond: row
      ? Math.round(THROUGHPUT_EVENTS / ((row.last.getTime() - row.first.getTime()) / 1000))
      : 0,
    failed: Number(row?.failed ?? 0),
  };
}

/** Transactions and row writes of the whole database, from PostgreSQL's statistics. */
async function databaseStats(db: pg.Client) {
  const { rows } = await db.query<Record<string, string>>(
    `select d.xact_commit, t.n_tup_upd as event_updates, t.n_tup_hot_upd as event_hot_updates
     from pg_stat_database d, pg_stat_user_tables t
     where d.datname = current_database() and t.relname = 'events'`,
  );
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}

function perThousand(before: Record<string, number>, after: Record<string, number>) {
  return Object.fromEntries(
    Object.keys(after).map((key) => [
      key,
      Math.round(((after[key]! - before[key]!) * 1000) / THROUGHPUT_EVENTS),
    ]),
  );
}

/** Events spread over 10 s, created through the API; lateness = executed_at − scheduled_at. */
async function punctuality(setup: Setup, receiverUrl: string) {
  const start = Date.now() + PUNCTUALITY_LEAD_MS;
  const url = `${receiverUrl}/punctuality`;
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < PUNCTUALITY_EVENTS) {
        const i = next++;
        const scheduledAt = new Date(start + Math.floor((i * PUNCTUALITY_SPREAD_MS) / PUNCTUALITY_EVENTS));
        const response = await fetch(`${setup.apiUrl}/api/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ webhook_url: url, scheduled_at: scheduledAt.toISOString(), payload: { i } }),
        });
        if (response.status !== 201)
          throw new Error(`POST answered ${response.status}: ${await response.text()}`);
      }
    }),
  );
  if (Date.now() > start) throw new Error('creating the punctuality events took longer than their lead time');
  await waitFor(
    async () => {
      const { rows } = await setup.db.query<{ n: string }>(
        `select count(*) as n from events where webhook_url = $1 and status in ('success', 'failed')`,
        [url],
      );
      return Number(rows[0]?.n) >= PUNCTUALITY_EVENTS ? true : undefined;
    },
    'the punctuality events',
    120_000,
  );
  // numeric arrives as text from pg.
  const { rows } = await setup.db.query<{ ms: string }>(
    `select extract(epoch from executed_at - scheduled_at) * 1000 as ms from events where webhook_url = $1`,
    [url],
  );
  return { events: PUNCTUALITY_EVENTS, ...spread(rows.map((row) => Number(row.ms))) };
}

/** The same POSTs sent straight with undici: the limit of this machine for this receiver. */
async function rawLimit(receiverUrl: string) {
  const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
  const body = JSON.stringify({ bench: true });
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 512 }, async () => {
      while (next++ < THROUGHPUT_EVENTS) {
        const response = await request(`${receiverUrl}/raw`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'webhook-id': `raw-${next}` },
          dispatcher: agent,
        });
        await response.body.dump();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await agent.close();
  return {
    requestsPerSecond: Math.round(THROUGHPUT_EVENTS / seconds),
    senderCpuMicrosecondsPerRequest: Math.round((cpu.user + cpu.system) / THROUGHPUT_EVENTS),
  };
}

async function cpuOf(pids: Setup['cpu']) {
  const service = (await Promise.all(pids.service.map(treeCpuMs))).reduce((a, b) => a + b, 0);
  return { service, postgres: await treeCpuMs(pids.postgres), receiver: await treeCpuMs(pids.receiver) };
}

async function peekReceiver(receiverUrl: string) {
  return (await (await fetch(`${receiverUrl}/stats`)).json()) as { unique: number };
}

async function receiverStats(receiverUrl: string) {
  const stats = (await (await fetch(`${receiverUrl}/stats`)).json()) as {
    requests: number;
    unique: number;
    duplicates: number;
  };
  await fetch(`${receiverUrl}/reset`);
  return stats;
}

async function run(schedulers: 1 | 2, receiverUrl: string, receiverPid: number) {
  const data = await freshDataDir();
  const processes: Running[] = [];
  try {
    if (schedulers === 1) {
      processes.push(await startService('all', PORT, data.dir, SHARES));
    } else {
      processes.push(await startService('api', PORT, data.dir));
      processes.push(await startService('scheduler', PORT + 1, data.dir, SHARES));
      processes.push(await startService('scheduler', PORT + 2, data.dir, SHARES));
    }
    const db = await connectDb(data.dir);
    for (const statement of setupStatements()) await db.query(statement);
    const key = firstKey(processes[0]!);
    const { rows } = await db.query<{ id: string }>('select team_id as id from api_keys limit 1');
    const cpu = {
      service: processes.map((running) => running.child.pid ?? 0),
      postgres: await postmasterPid(data.dir),
      receiver: receiverPid,
    };
    const setup: Setup = { cpu, db, key, teamId: rows[0]!.id, apiUrl: `http://127.0.0.1:${PORT}`, processes };
    await receiverStats(receiverUrl);
    const throughputResult = await throughput(setup, receiverUrl);
    const throughputReceived = await receiverStats(receiverUrl);
    const punctualityResult = await punctuality(setup, receiverUrl);
    const punctualityReceived = await receiverStats(receiverUrl);
    await db.end();
    // Measured in the same run, on the same database and receiver, with the service idle.
    const floor =
      schedulers === 1
        ? await skipLockedFloor(
            { host: path.join(data.dir, 'run'), user: 'postgres', database: 'webhook_scheduler' },
            receiverUrl,
            THROUGHPUT_EVENTS,
            () => cpuOf(cpu),
          )
        : undefined;
    await receiverStats(receiverUrl);
    return {
      schedulers,
      throughput: { ...throughputResult, ...throughputReceived },
      punctuality: { ...punctualityResult, ...punctualityReceived },
      skipLockedFloor: floor,
    };
  } finally {
    for (const running of processes.reverse()) await running.stop();
    await data.remove();
  }
}

const receiver = await startReceiver();
try {
  const raw = await rawLimit(receiver.url);
  await receiverStats(receiver.url);
  const runs = [];
  for (const schedulers of SET_UPS) {
    const figures = await run(schedulers, receiver.url, receiver.child.pid ?? 0);
    runs.push({ ...figures, againstAims: againstAims(raw, figures) });
  }
  const result = {
    date: new Date().toISOString(),
    cpus: (await import('node:os')).cpus().length,
    setupSql: process.env.BENCH_SETUP_SQL,
    shares: process.env.BENCH_SHARES === 'default' ? 'default' : 'lifted',
    raw,
    runs,
  };
  const name = process.env.BENCH_RESULT ?? `delivery-${result.date.slice(0, 10)}`;
  const file = new URL(`../results/${name}.json`, import.meta.url);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await receiver.stop();
}
