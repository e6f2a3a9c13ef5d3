import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EventSort, EventStatus } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCron, makeCrons, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { firstPageOf } from '../../test/event-pages.js';
import { countedDuring } from '../../test/index-reads.js';
import { cronsRunningOut } from '../crons/cron-occurrences.js';
import { createOrm } from '../db/orm.js';
import { nextDueAt, pendingSlots } from '../events/store/claims.js';
import { type EventFilter, countEvents } from '../events/store/event-queries.js';
import { expiredLeases } from '../events/store/leases.js';
import { dueBacklog } from '../events/store/queue-load.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog, claimDue } from './claims.js';
import { nextReleaseInMs } from './destination-reconcile.js';

// Issue 25: waiting work costs nothing until it is due. The scheduler's claims, its probes and the
// API's first pages read the same pages of the database with and without events and crons waiting
// for later. WAITING_EVENTS=2000000 runs it at bench/scale's size (bench/README.md, bench/scale).

const WAITING_EVENTS = Number(process.env.WAITING_EVENTS ?? 100_000);
const WAITING_CRONS = Number(process.env.WAITING_CRONS ?? 2_000);
const TEAMS = 4;
const FINISHED = 2_000;
const SOON = 100;
/** The cron top-up's reach, 1.1 of the default 5-minute horizon; the timer's horizon is read as far. */
const HORIZON_MS = 330_000;
const PAGE = 50;
const LEEWAY = 4;

let database: TestDatabase;
let orm: MikroORM;
let teams: string[];
let cronOfFirstTeam: string;

/** Pages of every table and index of the schema fetched (from shared buffers or not), and index scans. */
const READS = `select coalesce(sum(pg_stat_get_xact_blocks_fetched(c.oid)), 0) as pages,
    coalesce(sum(pg_stat_get_xact_numscans(c.oid)) filter (where c.relkind = 'i'), 0) as scans
  from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'i', 't')`;

type Probe = (tx: EntityManager, now: Date) => Promise<number>;

const firstPage = async (tx: EntityManager, filter: EventFilter, sort: EventSort) =>
  (await firstPageOf(tx, filter, sort, PAGE)).length;

function probes(): Record<string, Probe> {
  const team = teams[0] as string;
  const found: Record<string, Probe> = {
    'slot claim, nothing due': async (tx, now) =>
      (
        await claimDue(tx, {
          ...unsharedClaim(100),
          from: new Date(now.getTime() - 1000),
          before: new Date(now.getTime() + 1000),
          aheadMs: 100,
        })
      ).length,
    'backlog claim, nothing due': async (tx) =>
      (await claimBacklog(tx, { ...unsharedClaim(100), aheadMs: 100 })).length,
    'next-due probe': async (tx, now) =>
      (await nextDueAt(tx, now, new Date(now.getTime() + 1000), 100)) === null ? 0 : 1,
    'timer horizon: pending seconds': async (tx, now) =>
      (await pendingSlots(tx, now, new Date(now.getTime() + HORIZON_MS))).length,
    'cron top-up: crons running out': async (tx) => (await cronsRunningOut(tx, HORIZON_MS, 100)).length,
    'expired leases': async (tx) => (await expiredLeases(tx, 100, [])).length,
    'due backlog': (tx) => dueBacklog(tx),
    'destinations: next release': async (tx) => ((await nextReleaseInMs(tx)) === null ? 0 : 1),
  };
  const statuses: (EventStatus | undefined)[] = [undefined, 'pending', 'success', 'failed'];
  for (const status of statuses) {
    for (const sort of ['created_at', 'scheduled_at', '-scheduled_at'] as EventSort[])
      found[`list ${status ?? 'all'} by ${sort}`] = (tx) => firstPage(tx, { teamId: team, status }, sort);
    found[`count ${status ?? 'all'}`] = async (tx) =>
      Math.min(1, await countEvents(tx, { teamId: team, status }));
  }
  found["list a cron's events"] = (tx) =>
    firstPage(tx, { teamId: team, cronId: cronOfFirstTeam }, 'created_at');
  found["count a cron's events"] = async (tx) =>
    Math.min(1, await countEvents(tx, { teamId: team, cronId: cronOfFirstTeam }));
  return found;
}

interface Cost {
  rows: number;
  pages: number;
  scans: number;
  ms: number;
}

/** The median of `runs` timings of `work`, in milliseconds: reported, never asserted. */
async function medianMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? Number.NaN;
}

/** Each probe run once to warm the caches and plans, then measured. */
async function measure(): Promise<Record<string, Cost>> {
  const costs: Record<string, Cost> = {};
  for (const [name, probe] of Object.entries(probes())) {
    await orm.em.fork().transactional((tx) => probe(tx, new Date()));
    const { result, grew } = await countedDuring(orm, READS, (tx) => probe(tx, new Date()));
    const ms = await medianMs(5, () => orm.em.fork().transactional((tx) => probe(tx, new Date())));
    costs[name] = { rows: result, pages: grew.pages ?? Number.NaN, scans: grew.scans ?? Number.NaN, ms };
  }
  return costs;
}

/** The teams' history and their next events: what both measurements share. */
async function seedShared(em: EntityManager): Promise<void> {
  for (const team of teams) {
    const cron = await makeCron(em, team, { materializedUntil: new Date(Date.now() + 86_400_000) });
    if (team === teams[0]) cronOfFirstTeam = cron.id;
    await rawQuery(
      em,
      `insert into events (id, team_id, cron_id, attempt, scheduled_at, executed_at, status, webhook_url, destination,
         method, response_status, created_at, updated_at)
       select gen_random_uuid(), $1, case when n % 4 = 0 then $2::uuid end, 0, t, t + interval '5 ms',
         case when n % 10 = 0 then 'failed' else 'success' end, 'https://example.com/hook', 'https://example.com',
         'POST', case when n % 10 = 0 then 500 else 200 end, t - interval '1 minute', t
       from generate_series(1, $3) as n, lateral (select now() - n * interval '10 seconds' as t) as at`,
      [team, cron.id, FINISHED],
    );
    await rawQuery(
      em,
      `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
       select gen_random_uuid(), $1, 0, now() + interval '1 hour' + n * interval '10 seconds', 'pending',
         'https://example.com/hook', 'https://example.com', 'POST', now(), now()
       from generate_series(1, $2) as n`,
      [team, SOON],
    );
  }
}

/** Events over the next 30 days (half of them the first team's), and crons next due hours from now. */
async function seedWaiting(em: EntityManager): Promise<void> {
  await rawQuery(
    em,
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), ($1::uuid[])[case when n % 2 = 0 then 1 else 2 + n % ($3 - 1) end], 0,
       now() + interval '2 hours' + (n::float8 / $2) * interval '30 days', 'pending',
       'https://example.com/hook', 'https://example.com', 'POST', now(), now()
     from generate_series(1, $2) as n`,
    [teams, WAITING_EVENTS, TEAMS],
  );
  const now = Date.now();
  for (const [i, team] of teams.entries())
    await makeCrons(em, team, Math.ceil(WAITING_CRONS / TEAMS), (n) => ({
      materializedUntil: new Date(now + 3 * 3_600_000 + (n * TEAMS + i) * 1000),
    }));
}

let empty: Record<string, Cost>;
let waiting: Record<string, Cost>;

/** Each probe without and with the waiting work: a Markdown table for bench/README.md. */
function report(): string {
  const pair = (name: string, of: (cost: Cost) => string) =>
    `${of(empty[name] as Cost)} / ${of(waiting[name] as Cost)}`;
  return [
    '| probe | rows | pages | index scans | median ms |',
    '| --- | --- | --- | --- | --- |',
    ...Object.keys(empty).map(
      (name) =>
        `| ${name} | ${pair(name, (c) => String(c.rows))} | ${pair(name, (c) => String(c.pages))} | ${pair(name, (c) => String(c.scans))} | ${pair(name, (c) => c.ms.toFixed(2))} |`,
    ),
  ].join('\n');
}

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  teams = [];
  for (let i = 0; i < TEAMS; i += 1) teams.push(await makeTeam(orm.em.fork(), `team ${i}`));
  await seedShared(orm.em.fork());
  await rawQuery(orm.em.fork(), 'vacuum analyze');
  empty = await measure();
  await seedWaiting(orm.em.fork());
  await rawQuery(orm.em.fork(), 'vacuum analyze');
  waiting = await measure();
  if (process.env.WAITING_EVENTS) process.stdout.write(`${report()}\n`);
}, 600_000);
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe(`with ${WAITING_EVENTS} events and ${WAITING_CRONS} crons waiting for later`, () => {
  it('the claims, the probes and the first pages find what they found without them', () => {
    for (const name of Object.keys(empty))
      expect({ name, rows: waiting[name]?.rows }).toEqual({ name, rows: empty[name]?.rows });
  });

  // An index grown by a level costs each scan one more page, and a plan that takes an index instead
  // of a few pages of a small table a few more; anything that read the waiting rows reads thousands.
  it('and read the same pages, but one more for each index scan', () => {
    const costlier = Object.entries(empty).flatMap(([name, cost]) => {
      const now = waiting[name] as Cost;
      return now.pages > cost.pages + now.scans + LEEWAY ? [{ name, empty: cost, waiting: now }] : [];
    });
    expect(costlier).toEqual([]);
  });
});
