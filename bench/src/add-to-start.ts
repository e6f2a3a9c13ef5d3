// bench/add-to-start: how soon an event created to fall due almost at once is called. One `all`
// process on a fresh embedded PostgreSQL; events created one at a time through `POST /api/v1/events`
// with `scheduled_at` ADD_LEADS_MS (each lead in turn) after the request is sent, at random gaps;
// a receiver in this process notes when each call arrives. Reported per lead: lateness (arrival −
// scheduled_at) and add-to-arrival (arrival − the create request's send); also events never called
// and calls received twice. Then ADD_TRIGGERS (60) manual runs of a cron, due at once: from the
// request's send to the call's arrival and to the request's answer. ADD_BACKGROUND_RATE events a
// second (default 0) fall due meanwhile, created ahead through the batch route, so that every
// second's slot is running. ADD_SPLIT=1: one `--role api` process and two `--role scheduler` ones.
// ADD_GAP_MS: the gaps' range (120,380). The CPU of the service and PostgreSQL over the leads' phase.
// Usage: npm run add-to-start -w bench  (ADD_PER_LEAD: events per lead; BENCH_SERVICE_ROOT: another
// checkout; ADD_RESULT: a suffix for the results file).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import { freshDataDir, printedKey, saveReport, spread, startService } from './processes.ts';

const LEADS_MS = (process.env.ADD_LEADS_MS ?? '15,30,60,100,200,1000').split(',').map(Number);
const PER_LEAD = Number(process.env.ADD_PER_LEAD ?? 60);
const BACKGROUND_RATE = Number(process.env.ADD_BACKGROUND_RATE ?? 0);
/** One `--role api` process and two `--role scheduler` processes instead of one `all`. */
const SPLIT = process.env.ADD_SPLIT === '1';
const PORT = Number(process.env.BENCH_PORT ?? 3591);
/** Gaps between creates, drawn uniformly: never in step with the timer's polls. */
const GAP_MS = (process.env.ADD_GAP_MS ?? '120,380').split(',').map(Number);

const TRIGGERS = Number(process.env.ADD_TRIGGERS ?? 60);

const arrivals = new Map<string, number>();
let duplicates = 0;
/** Calls of the cron's manual runs, by `webhook-id` (the run's event). */
const triggered = new Map<string, number>();
let triggeredTwice = 0;

function startReceiver(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      const id = req.url?.startsWith('/add/') ? req.url.slice(5) : undefined;
      if (id !== undefined && arrivals.has(id)) duplicates++;
      else if (id !== undefined) arrivals.set(id, at);
      const run = req.url === '/trigger' ? String(req.headers['webhook-id']) : undefined;
      if (run !== undefined && triggered.has(run)) triggeredTwice++;
      else if (run !== undefined) triggered.set(run, at);
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function request(pool: Pool, key: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 201) throw new Error(`${path} refused: ${response.statusCode} ${text}`);
  return (JSON.parse(text) as { data: { id: string } }).data;
}

/**
 * A cron's manual runs (`POST /crons/{id}/trigger`), due at once: from each request's send to its
 * call's arrival, the analogue of a queue's add-to-start for a job due now.
 */
async function triggerRuns(pool: Pool, key: string, target: string) {
  const cron = await request(pool, key, '/api/v1/crons', {
    cron_expression: '0 0 1 1 *',
    webhook_url: `${target}/trigger`,
  });
  const sentAt = new Map<string, number>();
  const answeredMs: number[] = [];
  for (let k = 0; k < TRIGGERS; k++) {
    const at = Date.now();
    sentAt.set((await request(pool, key, `/api/v1/crons/${cron.id}/trigger`)).id, at);
    answeredMs.push(Date.now() - at);
    await sleep(GAP_MS[0]! + Math.random() * (GAP_MS[1]! - GAP_MS[0]!));
  }
  const deadline = Date.now() + 30_000;
  while ([...sentAt.keys()].some((id) => !triggered.has(id)) && Date.now() < deadline) await sleep(100);
  const called = [...sentAt].filter(([id]) => triggered.has(id));
  return {
    runs: TRIGGERS,
    missing: TRIGGERS - called.length,
    duplicates: triggeredTwice,
    addToArrivalMs: spread(called.map(([id, at]) => triggered.get(id)! - at)),
    answeredMs: spread(answeredMs),
  };
}

/** Background events due at `BACKGROUND_RATE` a second over `seconds`, starting `leadMs` from now. */
async function createBackground(pool: Pool, key: string, target: string, seconds: number, leadMs: number) {
  const total = Math.round(BACKGROUND_RATE * seconds);
  const first = Date.now() + leadMs;
  for (let from = 0; from < total; from += 1000) {
    const events = Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({
      webhook_url: `${target}/background/${from + k}`,
      scheduled_at: new Date(first + ((from + k) * 1000) / BACKGROUND_RATE).toISOString(),
      payload: { n: from + k },
    }));
    await request(pool, key, '/api/v1/events/batch', { events });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const data = await freshDataDir();
  const service = await startService(SPLIT ? 'api' : 'all', PORT, data.dir);
  const schedulers = SPLIT
    ? [
        await startService('scheduler', PORT + 1, data.dir),
        await startService('scheduler', PORT + 2, data.dir),
      ]
    : [];
  const receiver = await startReceiver();
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const pool = new Pool(`http://127.0.0.1:${PORT}`, { connections: 4 });
  try {
    const key = await printedKey(service);
    const meanGap = (GAP_MS[0]! + GAP_MS[1]!) / 2;
    const measuredS = ((LEADS_MS.length * PER_LEAD + TRIGGERS) * meanGap) / 1000 + 10;
    if (BACKGROUND_RATE > 0) await createBackground(pool, key, target, measuredS + 10, 3000);
    // The first requests are slow (connections, the key's lookup, compilation): a 15 ms lead passed.
    for (let k = 0; k < 20; k++) {
      await request(pool, key, '/api/v1/events', {
        webhook_url: `${target}/warm-up/${k}`,
        scheduled_at: new Date(Date.now() + 2000).toISOString(),
      });
    }
    await sleep(3000);
    const sent: { id: string; leadMs: number; sentAt: number; scheduledAt: number }[] = [];
    const refused: Record<number, number> = {};
    const postgres = await postmasterPid(data.dir);
    const cpuNow = async () => {
      const each = await Promise.all(
        [service, ...schedulers].map((running) => treeCpuMs(running.child.pid!)),
      );
      return { service: each.reduce((a, b) => a + b, 0), postgres: await treeCpuMs(postgres) };
    };
    const cpuBefore = await cpuNow();
    for (let round = 0; round < PER_LEAD; round++) {
      for (const leadMs of LEADS_MS) {
        const id = `${leadMs}-${round}`;
        const sentAt = Date.now();
        const scheduledAt = sentAt + leadMs;
        const created = await request(pool, key, '/api/v1/events', {
          webhook_url: `${target}/add/${id}`,
          scheduled_at: new Date(scheduledAt).toISOString(),
        }).then(
          () => true,
          (error: unknown) => {
            // The request took longer than the lead: the time was already past when it arrived.
            if (!String(error).includes('must be in the future')) throw error;
            return false;
          },
        );
        if (created) sent.push({ id, leadMs, sentAt, scheduledAt });
        else refused[leadMs] = (refused[leadMs] ?? 0) + 1;
        await sleep(GAP_MS[0]! + Math.random() * (GAP_MS[1]! - GAP_MS[0]!));
      }
    }
    const deadline = Date.now() + 30_000;
    while (sent.some(({ id }) => !arrivals.has(id)) && Date.now() < deadline) await sleep(100);
    const missing = sent.filter(({ id }) => !arrivals.has(id)).length;
    const cpuAfter = await cpuNow();
    const perLead = Object.fromEntries(
      LEADS_MS.map((leadMs) => {
        const mine = sent.filter((event) => event.leadMs === leadMs && arrivals.has(event.id));
        return [
          `${leadMs}ms`,
          {
            refusedAsPast: refused[leadMs] ?? 0,
            latenessMs: spread(mine.map((event) => arrivals.get(event.id)! - event.scheduledAt)),
            addToArrivalMs: spread(mine.map((event) => arrivals.get(event.id)! - event.sentAt)),
          },
        ];
      }),
    );
    const report = {
      date: new Date().toISOString(),
      service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
      processes: SPLIT ? 'api + 2 schedulers' : 'all',
      perLead: PER_LEAD,
      backgroundPerSecond: BACKGROUND_RATE,
      missing,
      duplicates,
      cpuMsOfLeadPhase: {
        service: Math.round(cpuAfter.service - cpuBefore.service),
        postgres: Math.round(cpuAfter.postgres - cpuBefore.postgres),
      },
      leads: perLead,
      triggers: await triggerRuns(pool, key, target),
    };
    await saveReport(`add-to-start${process.env.ADD_RESULT ? `-${process.env.ADD_RESULT}` : ''}`, report);
  } finally {
    await pool.close();
    receiver.close();
    for (const scheduler of schedulers) await scheduler.stop();
    await service.stop();
    await data.remove();
  }
}

await main();
