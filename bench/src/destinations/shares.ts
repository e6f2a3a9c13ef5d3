// Scenario 4: the default shares against the shares lifted, one sitting. Team A: 20,000 events due
// at once to a receiver that answers at once (bench/delivery's set-up); team B: 3,000 punctual events
// over the same 10 s to another receiver. Deliveries/s of A with the defaults must stay ≥ 0.8× of the
// lifted run's, and B's lateness p99 ≤ 25 ms meanwhile. DEST_SHARES_ROUNDS=defaults,lifted,… orders them.
import { spread, waitFor } from '../processes.ts';
import { scrapeStatements, statementsBetween } from '../service-statements.ts';
import { addTeam, evenly, finished, insertEvents } from '../seed.ts';
import type pg from 'pg';
import { type ActivitySampler, sampleActivity } from './activity.ts';
import { arrived, lateness, latenessBySecond, readArrivals, startArrivals } from './arrivals.ts';
import { type BenchService, startBenchService } from './bench-service.ts';
import type { Figure } from './report.ts';

const A_EVENTS = Number(process.env.DEST_SHARES_EVENTS ?? 20_000);
const B_EVENTS = 3000;
const B_SPREAD_MS = 10_000;
// Inserting 20,000 events with their timers took over 5 s at a load average of 17.
const LEAD_MS = 10_000;
const ENVS: Record<string, Record<string, string>> = {
  defaults: {},
  lifted: { TEAM_MAX_IN_FLIGHT: '1000', DESTINATION_MAX_IN_FLIGHT: '1000' },
  // Team B alone (no team A), defaults: what this machine gives B's punctuality in the same sitting.
  alone: {},
};

interface Round {
  shares: string;
  perSecond: number;
  b: ReturnType<typeof lateness>;
  /** B's lateness at its call's start, by the service's record (`executed_at`): the service's part. */
  bStarted: ReturnType<typeof spread>;
  /** B's lateness by the second of its 10 s: the first holds a cold start. */
  bBySecond: ReturnType<typeof latenessBySecond>;
  lost: number;
  duplicates: number;
  failed: number;
  transactionsPerThousandDeliveries: number;
  /** The claims' and outcome writes' times, as the service counts them (its /metrics). */
  statements: ReturnType<typeof statementsBetween>;
  activity: Awaited<ReturnType<ActivitySampler['stop']>> | undefined;
}

async function round(shares: string, aUrl: string, bUrl: string): Promise<Round> {
  let bench: BenchService | undefined;
  try {
    bench = await startBenchService(ENVS[shares]);
    const db = bench.db;
    const teamB = await addTeam(db, bench.teamId, 'B');
    const due = Date.now() + LEAD_MS;
    const aEvents = shares === 'alone' ? 0 : A_EVENTS;
    if (aEvents > 0) await insertEvents(db, bench.teamId, aUrl, evenly(aEvents, due, 0));
    await insertEvents(db, teamB, bUrl, evenly(B_EVENTS, due, B_SPREAD_MS));
    if (Date.now() > due) throw new Error('inserting the events took longer than their lead time');
    const sampler =
      process.env.DEST_SAMPLE_ACTIVITY === '1' ? sampleActivity(await bench.connect()) : undefined;
    const before = await transactions(db);
    const statementsBefore = await scrapeStatements(bench.url);
    for (const [url, events] of [
      [aUrl, aEvents],
      [bUrl, B_EVENTS],
    ] as const) {
      await arrived(...split(url), events, 600_000);
      await waitFor(async () => ((await finished(db, url)).done >= events ? true : undefined), url);
    }
    const activity = await sampler?.stop();
    const statements = statementsBetween(statementsBefore, await scrapeStatements(bench.url));
    const perThousand = Math.round(((await transactions(db)) - before) / ((aEvents + B_EVENTS) / 1000));
    const a = await readArrivals(...split(aUrl));
    const b = await readArrivals(...split(bUrl));
    const failed = (await finished(db, aUrl)).failed + (await finished(db, bUrl)).failed;
    return {
      shares,
      perSecond: aEvents > 0 ? Math.round(a.unique / ((Math.max(...a.at) - due) / 1000)) : 0,
      b: lateness(b),
      bStarted: spread(await startLateness(db, bUrl)),
      bBySecond: latenessBySecond(b, due),
      lost: aEvents + B_EVENTS - a.unique - b.unique,
      duplicates: a.duplicates + b.duplicates,
      failed,
      transactionsPerThousandDeliveries: perThousand,
      statements,
      activity,
    };
  } finally {
    await bench?.stop();
  }
}

/** Transactions committed in the database so far (PostgreSQL publishes them up to a second late). */
async function transactions(db: pg.Client): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { rows } = await db.query<{ n: string }>(
    'select xact_commit as n from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]?.n);
}

/** Each call's start (ms, the service's clock) less its scheduled time, for the events to `url`. */
async function startLateness(db: pg.Client, url: string): Promise<number[]> {
  const { rows } = await db.query<{ ms: string }>(
    `select extract(epoch from executed_at - scheduled_at) * 1000 as ms from events where webhook_url = $1`,
    [url],
  );
  return rows.map((row) => Number(row.ms));
}

/** A receiver's origin and path. */
function split(url: string): [string, string] {
  const parsed = new URL(url);
  return [parsed.origin, parsed.pathname];
}

const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)] ?? NaN;

export async function defaultShares(): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const order = (process.env.DEST_SHARES_ROUNDS ?? 'defaults,lifted').split(',');
  const throughput = await startArrivals();
  const punctual = await startArrivals();
  const rounds: Round[] = [];
  try {
    for (const [i, shares] of order.entries()) {
      if (!ENVS[shares]) throw new Error(`no shares "${shares}" (defaults, lifted)`);
      const result = await round(shares, `${throughput.url}/a-${i}`, `${punctual.url}/b-${i}`);
      console.log(JSON.stringify(result));
      rounds.push(result);
    }
  } finally {
    await throughput.stop();
    await punctual.stop();
  }
  const of = (shares: string) => rounds.filter((run) => run.shares === shares);
  const defaults = median(of('defaults').map((run) => run.perSecond));
  const lifted = median(of('lifted').map((run) => run.perSecond));
  const ratio = Math.round((defaults / lifted) * 100) / 100;
  const p99 = Math.max(...of('defaults').map((run) => run.b.p99));
  const list = (shares: string, read: (run: Round) => number) => of(shares).map(read).join(' · ');
  const figures: Figure[] = [
    {
      figure: 'team A deliveries/s, defaults',
      value: list('defaults', (run) => run.perSecond),
      aim: '',
      met: null,
    },
    {
      figure: 'team A deliveries/s, shares lifted',
      value: list('lifted', (run) => run.perSecond),
      aim: '',
      met: null,
    },
    { figure: 'defaults / lifted (medians)', value: ratio, aim: '≥ 0.8', met: ratio >= 0.8 },
    {
      figure: 'team B lateness p50 / p99, defaults',
      value: of('defaults')
        .map((run) => `${run.b.p50} / ${run.b.p99} ms`)
        .join(' · '),
      aim: 'p99 ≤ 25 ms',
      met: p99 <= 25,
    },
    {
      figure: "team B at its call's start p50 / p99, defaults (service)",
      value: of('defaults')
        .map((run) => `${run.bStarted.p50} / ${run.bStarted.p99} ms`)
        .join(' · '),
      aim: '',
      met: null,
    },
    ...['lifted', 'alone']
      .filter((shares) => of(shares).length > 0)
      .map((shares) => ({
        figure: `team B lateness p50 / p99, ${shares === 'alone' ? 'alone (no team A)' : shares}`,
        value: of(shares)
          .map((run) => `${run.b.p50} / ${run.b.p99} ms`)
          .join(' · '),
        aim: '',
        met: null,
      })),
    {
      figure: 'lost / duplicates / failed',
      value: rounds.map((run) => `${run.lost}/${run.duplicates}/${run.failed}`).join(' · '),
      aim: '0/0/0',
      met: rounds.every((run) => run.lost + run.duplicates + run.failed === 0),
    },
  ];
  return { figures, details: { events: { a: A_EVENTS, b: B_EVENTS }, rounds } };
}
