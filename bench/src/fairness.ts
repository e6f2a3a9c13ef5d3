// bench/fairness: a quiet team's punctuality while a noisy team's backlog drains to a slow receiver.
// Usage: npm run fairness -w bench   (BENCH_SERVICE_ROOT=<another checkout> measures its build instead)
import { writeFile } from 'node:fs/promises';
import type pg from 'pg';
import { freshDataDir, spread, startReceiver, startService, waitFor } from './processes.ts';
import { addTeam, connectDb, evenly, finished, firstTeamId, insertEvents } from './seed.ts';

const NOISY_EVENTS = Number(process.env.BENCH_NOISY_EVENTS ?? 20_000);
const QUIET_EVENTS = 3000;
const QUIET_SPREAD_MS = 10_000;
const SLOW_RECEIVER_MS = 1000;
const PORT = Number(process.env.BENCH_PORT ?? 3390);
// The team share is what this measures; the destination limit (50 by default) would slow team A further.
const SERVICE_ENV = { DESTINATION_MAX_IN_FLIGHT: process.env.DESTINATION_MAX_IN_FLIGHT ?? '1000' };

async function lateness(db: pg.Client, url: string) {
  // numeric arrives as text from pg.
  const { rows } = await db.query<{ ms: string }>(
    `select extract(epoch from executed_at - scheduled_at) * 1000 as ms from events where webhook_url = $1`,
    [url],
  );
  const { p50, p99, max } = spread(rows.map((row) => Number(row.ms)));
  return { p50, p99, max };
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
const db = await connectDb(data.dir);
try {
  const noisy = await firstTeamId(db);
  const quiet = await addTeam(db, noisy, 'quiet');
  const noisyUrl = `${slow.url}/noisy`;
  const quietUrl = `${fast.url}/quiet`;
  const dueAt = Date.now() + 5000;
  await insertEvents(db, noisy, noisyUrl, evenly(NOISY_EVENTS, dueAt, 0));
  await insertEvents(db, quiet, quietUrl, evenly(QUIET_EVENTS, dueAt + 500, QUIET_SPREAD_MS));
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
