// bench/fairness: a quiet team's punctuality while a noisy team's backlog drains to a slow receiver.
// Usage: npm run fairness -w bench   (BENCH_SERVICE_ROOT=<another checkout> measures its build instead)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Timers, newEventId } from '@webhook-scheduler/scheduler';
import pg from 'pg';
import { freshDataDir, percentile, startReceiver, startService, waitFor } from './processes.ts';
import { storedOrigin } from './stored-origin.ts';

const NOISY_EVENTS = Number(process.env.BENCH_NOISY_EVENTS ?? 20_000);
const QUIET_EVENTS = 3000;
const QUIET_SPREAD_MS = 10_000;
const SLOW_RECEIVER_MS = 1000;
const PORT = Number(process.env.BENCH_PORT ?? 3390);
// The team share is what this measures; the destination limit (50 by default) would slow team A further.
const SERVICE_ENV = { DESTINATION_MAX_IN_FLIGHT: process.env.DESTINATION_MAX_IN_FLIGHT ?? '1000' };

async function insertEvents(db: pg.Client, teamId: string, url: string, times: Date[]): Promise<void> {
  const origin = await storedOrigin(db, url, 5);
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at${origin.column})
     select id, $1, 0, t, 'pending', $2, 'POST', '{"bench":true}'::jsonb, now(), now()${origin.value}
     from unnest($3::timestamptz[], $4::uuid[]) as e(t, id)`,
    [teamId, url, times, times.map(() => newEventId()), ...origin.params],
  );
  const timers = new Timers({ shards: 2 });
  await timers.cover(db, timers.uncovered(times, new Date()), new Date());
}

async function finished(db: pg.Client, url: string): Promise<{ done: number; failed: number }> {
  const { rows } = await db.query<{ done: string; failed: string }>(
    `select count(*) filter (where status in ('success', 'failed')) as done,
            count(*) filter (where status = 'failed') as failed
     from events where webhook_url = $1`,
    [url],
  );
  return { done: Number(rows[0]?.done), failed: Number(rows[0]?.failed) };
}

async function lateness(db: pg.Client, url: string) {
  // numeric arrives as text from pg.
  const { rows } = await db.query<{ ms: string }>(
    `select extract(epoch from executed_at - scheduled_at) * 1000 as ms from events where webhook_url = $1`,
    [url],
  );
  const sorted = rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}

async function receiverStats(url: string) {
  return (await (await fetch(`${url}/stats`)).json()) as {
    requests: number;
    unique: number;
    duplicates: number;
  };
}

const slow = await startReceiver(SLOW_RECEIVER_MS);
const fast = await startReceiver(0);
const data = await freshDataDir();
const service = await startService('all', PORT, data.dir, SERVICE_ENV);
const db = new pg.Client({
  host: path.join(data.dir, 'run'),
  user: 'postgres',
  database: 'webhook_scheduler',
});
try {
  await db.connect();
  const { rows } = await db.query<{ id: string }>('select team_id as id from api_keys limit 1');
  const noisy = rows[0]!.id;
  const { rows: created } = await db.query<{ id: string }>(
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     select gen_random_uuid(), 'quiet', signing_secret, now(), now() from teams where id = $1 returning id`,
    [noisy],
  );
  const quiet = created[0]!.id;
  const noisyUrl = `${slow.url}/noisy`;
  const quietUrl = `${fast.url}/quiet`;
  const dueAt = Date.now() + 5000;
  await insertEvents(
    db,
    noisy,
    noisyUrl,
    Array.from({ length: NOISY_EVENTS }, () => new Date(dueAt)),
  );
  await insertEvents(
    db,
    quiet,
    quietUrl,
    Array.from(
      { length: QUIET_EVENTS },
      (_, i) => new Date(dueAt + 500 + Math.floor((i * QUIET_SPREAD_MS) / QUIET_EVENTS)),
    ),
  );
  if (Date.now() > dueAt) throw new Error('inserting the events took longer than their lead time');
  await waitFor(
    async () => ((await finished(db, quietUrl)).done >= QUIET_EVENTS ? true : undefined),
    "team B's events",
    900_000,
  );
  const noisyWhenQuietDone = await finished(db, noisyUrl);
  const noisyDoneAt = await waitFor(
    async () => ((await finished(db, noisyUrl)).done >= NOISY_EVENTS ? Date.now() : undefined),
    "team A's events",
    1_800_000,
  );
  const result = {
    date: new Date().toISOString(),
    service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
    env: SERVICE_ENV,
    quiet: {
      events: QUIET_EVENTS,
      latenessMs: await lateness(db, quietUrl),
      failed: (await finished(db, quietUrl)).failed,
      received: await receiverStats(fast.url),
    },
    noisy: {
      events: NOISY_EVENTS,
      doneWhenQuietWasDone: noisyWhenQuietDone.done,
      drainSeconds: Math.round((noisyDoneAt - dueAt) / 100) / 10,
      failed: (await finished(db, noisyUrl)).failed,
      received: await receiverStats(slow.url),
    },
  };
  const label = process.env.BENCH_SERVICE_ROOT ? '-baseline' : '';
  const file = new URL(`../results/fairness-${result.date.slice(0, 10)}${label}.json`, import.meta.url);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await db.end().catch(() => undefined);
  await service.stop();
  await data.remove();
  await slow.stop();
  await fast.stop();
}
