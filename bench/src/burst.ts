// bench/burst: work of many teams to many origins falling due at one instant, as a cron-heavy
// database's minute starts do (bench/scale SCALE=1: 5,000-10,000 occurrences at each minute's first
// instant). Two kinds, each on a fresh service (`--role all`, defaults) and database:
// - `events`: BURST_SIZE events due at one instant, inserted with SQL with their timers;
// - `crons`: BURST_SIZE minute crons ('* * * * *'), inserted with SQL and materialized by the
//   service; measured at the first minute that starts 25 s or more after they were added.
// Before either, the service delivers one such burst of events unmeasured, so that each kind meets a
// process that has delivered before (BURST_WARM=0: the first burst after the start, where the
// process compiles its code as it goes).
// Teams are skewed as in bench/scale (half the work to one team), origins taken in turn. Reported:
// deliveries/s from the due instant to the last call's start, the calls' start lateness (the
// service's records), CPU per delivery of the service and of PostgreSQL, the claims' and outcome
// writes' times and the event loop's delay as the service's /metrics count them, the API's answers
// beside the burst (GETs by id, open loop), and every call once.
// Usage: npm run burst -w bench   (BURST_KINDS=events,crons BURST_SIZE=10000 BURST_TEAMS=100
// BURST_ORIGINS=100 BURST_WARM=1 BURST_PROBE_RATE=100 BURST_RESULT=<suffix>;
// BENCH_SERVICE_ROOT=<checkout> measures another build)
import os from 'node:os';
import { Timers, newEventId, webhookOrigin } from '@webhook-scheduler/scheduler';
import { postmasterPid, treeCpuMs } from './cpu.ts';
import { type BenchService, startBenchService } from './destinations/bench-service.ts';
import { portReceiverStats, saveReport, spread, startPortReceivers, waitFor } from './processes.ts';
import { scrapeStatements, statementsBetween } from './service-statements.ts';
import { skewedTeam } from './scale/workload.ts';
import { addTeam } from './seed.ts';

const SIZE = Number(process.env.BURST_SIZE ?? 10_000);
const TEAMS = Number(process.env.BURST_TEAMS ?? 100);
const ORIGINS = Number(process.env.BURST_ORIGINS ?? 100);
const KINDS = (process.env.BURST_KINDS ?? 'events,crons').split(',');
const WARM = process.env.BURST_WARM !== '0';
const PORT_BASE = 31_000;
const EVENTS_LEAD_MS = 8000;
/** GETs by id a second beside the burst (`BURST_PROBE_RATE`; 0 for none), sent on time whatever the answers do. */
const PROBE_RATE = Number(process.env.BURST_PROBE_RATE ?? 100);
const CRONS_LEAD_MS = 25_000;

const urlOf = (n: number, kind: string) => `http://127.0.0.1:${PORT_BASE + (n % ORIGINS)}/${kind}/${n}`;

async function teamsOf(bench: BenchService): Promise<string[]> {
  const teams = [bench.teamId];
  for (let t = 1; t < TEAMS; t++) teams.push(await addTeam(bench.db, bench.teamId, `burst ${t}`));
  return teams;
}

/** SIZE events due at one instant; returns the instant. */
async function addEvents(bench: BenchService, teams: string[]): Promise<Date> {
  const at = new Date(Date.now() + EVENTS_LEAD_MS);
  const rows = Array.from({ length: SIZE }, (_, n) => ({
    team: teams[skewedTeam(TEAMS)]!,
    url: urlOf(n, 'event'),
  }));
  await bench.db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at,
                         updated_at, destination)
     select id, team, 0, $1, 'pending', url, 'POST', '{"burst":true}', now(), now(), origin
     from unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[]) as e(id, team, url, origin)`,
    [
      at,
      rows.map(() => newEventId()),
      rows.map((row) => row.team),
      rows.map((row) => row.url),
      rows.map((row) => webhookOrigin(row.url)),
    ],
  );
  await new Timers({ shards: 2 }).schedule(bench.db, [at], new Date());
  return at;
}

/** SIZE minute crons; returns the first minute they all fire at, once the service has materialized it. */
async function addCrons(bench: BenchService, teams: string[]): Promise<Date> {
  const rows = Array.from({ length: SIZE }, (_, n) => ({
    team: teams[skewedTeam(TEAMS)]!,
    url: urlOf(n, 'cron'),
  }));
  await bench.db.query(
    `insert into crons (id, team_id, cron_expression, timezone, webhook_url, method, payload, is_active,
                        created_at, updated_at, consecutive_failures)
     select gen_random_uuid(), team, '* * * * *', 'UTC', url, 'POST', '{"burst":true}', true, now(), now(), 0
     from unnest($1::uuid[], $2::text[]) as c(team, url)`,
    [rows.map((row) => row.team), rows.map((row) => row.url)],
  );
  const at = new Date(Math.ceil((Date.now() + CRONS_LEAD_MS) / 60_000) * 60_000);
  await waitFor(
    async () => {
      const { rows: ready } = await bench.db.query<{ n: string }>(
        'select count(*) as n from events where cron_id is not null and scheduled_at = $1',
        [at],
      );
      return Number(ready[0]?.n) >= SIZE ? true : undefined;
    },
    'the crons materialized',
    at.getTime() - Date.now(),
  );
  return at;
}

/**
 * The API beside the burst: `GET /events/{id}` of one event at PROBE_RATE a second, each timed from
 * when it was due to be sent, from now until `stop`, which gives their spread before and after `at`.
 */
function probeApi(bench: BenchService, eventId: string, at: Date) {
  const before: number[] = [];
  const during: number[] = [];
  const failures: string[] = [];
  const sent: Promise<void>[] = [];
  const every = 1000 / PROBE_RATE;
  const first = performance.now();
  let stopped = PROBE_RATE <= 0;
  const send = (due: number) => {
    const answered = bench.api('GET', `/events/${eventId}`).then(
      ({ status }) => {
        if (status !== 200) failures.push(`answered ${status}`);
        else (Date.now() < at.getTime() ? before : during).push(performance.now() - due);
      },
      (error: unknown) => void failures.push(String(error)),
    );
    sent.push(answered);
  };
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const due = first + n * every;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (!stopped) send(due);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(sent);
      if (failures.length > 0)
        throw new Error(`the API probe failed ${failures.length} times: ${failures[0]}`);
      return { rate: PROBE_RATE, before: spread(before), during: spread(during), requests: during.length };
    },
  };
}

/** The outcomes of the events due at `at`, once all SIZE are recorded. */
async function outcomesAt(bench: BenchService, at: Date) {
  return waitFor(async () => {
    const { rows } = await bench.db.query<{ ms: string; failed: boolean }>(
      `select extract(epoch from executed_at - scheduled_at) * 1000 as ms, status = 'failed' as failed
         from events where scheduled_at = $1 and status in ('success', 'failed')`,
      [at],
    );
    return rows.length >= SIZE ? rows : undefined;
  }, 'the outcomes');
}

async function anEventId(bench: BenchService): Promise<string> {
  const { rows } = await bench.db.query<{ id: string }>('select id from events where team_id = $1 limit 1', [
    bench.teamId,
  ]);
  if (!rows[0]) throw new Error('no event of the first team to read');
  return rows[0].id;
}

async function round(kind: string) {
  const bench = await startBenchService();
  try {
    const teams = await teamsOf(bench);
    if (WARM) await outcomesAt(bench, await addEvents(bench, teams));
    const at = kind === 'crons' ? await addCrons(bench, teams) : await addEvents(bench, teams);
    // From just before the due instant: the service materializes the crons' later occurrences until then.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - 1000 - Date.now())));
    const postgres = await postmasterPid(bench.dataDir);
    const service = bench.service.child.pid ?? 0;
    const cpuBefore = { service: await treeCpuMs(service), postgres: await treeCpuMs(postgres) };
    const statementsBefore = await scrapeStatements(bench.url);
    const receivedBefore = (await portReceiverStats(PORT_BASE)).unique;
    const probe = probeApi(bench, await anEventId(bench), at);
    await waitFor(
      async () => ((await portReceiverStats(PORT_BASE)).unique - receivedBefore >= SIZE ? true : undefined),
      'the calls',
      600_000,
    );
    const ended = await outcomesAt(bench, at);
    const apiBeside = await probe.stop();
    const cpuMs = {
      service: (await treeCpuMs(service)) - cpuBefore.service,
      postgres: (await treeCpuMs(postgres)) - cpuBefore.postgres,
    };
    const statements = statementsBetween(statementsBefore, await scrapeStatements(bench.url));
    const starts = ended.map((row) => Number(row.ms));
    return {
      kind,
      warm: WARM,
      deliveries: ended.length,
      failed: ended.filter((row) => row.failed).length,
      perSecond: Math.round(ended.length / (Math.max(...starts) / 1000)),
      startLatenessMs: spread(starts),
      cpuMicrosecondsPerDelivery: {
        service: Math.round((cpuMs.service * 1000) / SIZE),
        postgres: Math.round((cpuMs.postgres * 1000) / SIZE),
      },
      statements,
      apiBeside,
    };
  } finally {
    await bench.stop();
  }
}

const receivers = await startPortReceivers(PORT_BASE, ORIGINS);
try {
  const loadBefore = os.loadavg();
  const rounds = [];
  for (const kind of KINDS) {
    if (kind !== 'events' && kind !== 'crons') throw new Error(`no burst kind "${kind}" (events, crons)`);
    const result = await round(kind);
    console.log(JSON.stringify(result));
    rounds.push(result);
  }
  const { perSecond: _, ...received } = await portReceiverStats(PORT_BASE);
  const suffix = process.env.BURST_RESULT ? `-${process.env.BURST_RESULT}` : '';
  const report = {
    date: new Date().toISOString(),
    size: SIZE,
    teams: TEAMS,
    origins: ORIGINS,
    load: { before: loadBefore, after: os.loadavg() },
    rounds,
    received,
  };
  await saveReport(`burst${suffix}`, report);
} finally {
  await receivers.stop();
}
