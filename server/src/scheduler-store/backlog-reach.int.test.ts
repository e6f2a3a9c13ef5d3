import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ClaimOptions, ClaimShares } from '@webhook-scheduler/scheduler';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { countedDuring } from '../../test/index-reads.js';
import { rolledBack } from '../../test/rolled-back.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog } from './claims.js';

// bench/README.md, 2026-12-01: a backlog claim of 20 among 100 due teams ranked each team's first
// 20 due events, 2,000 rows, and spent most of its time on it. It now ranks only the rows its order
// can reach; these tests hold it to the rows the whole ranking would take.

const TEAMS = 4;
const ORIGINS = 3;
const TEAM_MAX = 5;
const origin = (n: number) => `https://reach-${n}.example.com`;

let database: TestDatabase;
let orm: MikroORM;
const teams: string[] = [];
const now = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  for (let n = 0; n < TEAMS; n++) teams.push(await makeTeam(orm.em.fork(), `reach ${n}`));
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

interface DueEvent {
  id: string;
  team: number;
  origin: number;
  dueAgoMs: number;
}

interface Case {
  events: DueEvent[];
  limit: number;
  /** Per team: its room in the claim, or undefined for the whole share. */
  rooms: (number | undefined)[];
  /** Per origin: no room left, or its whole share. */
  fullOrigins: boolean[];
  /** Per team and origin (`team * ORIGINS + origin`): no room left for the team there. */
  fullPairs: boolean[];
  /** Per team and origin: paused by the team. */
  paused: boolean[];
  servedSinceAgoMs: number;
}

const pair = (event: { team: number; origin: number }) => event.team * ORIGINS + event.origin;

/**
 * What the claim takes by its rules, with every room either none or enough: each team's first due
 * events (those due since schedulers serve first, then oldest first), up to its room and the limit;
 * without those of paused destinations, numbered in that order; those at no room dropped; the first
 * `limit` by (number − room, room descending, due while none served, oldest).
 */
function expectedClaim(c: Case): string[] {
  const ranked: { e: DueEvent; key: number[] }[] = [];
  for (let team = 0; team < TEAMS; team++) {
    const room = c.rooms[team] ?? TEAM_MAX;
    const dueWhileDown = (e: DueEvent) => (e.dueAgoMs > c.servedSinceAgoMs ? 1 : 0);
    const due = c.events
      .filter((e) => e.team === team)
      .sort((a, b) => dueWhileDown(a) - dueWhileDown(b) || b.dueAgoMs - a.dueAgoMs)
      .slice(0, Math.min(room, c.limit))
      .filter((e) => !c.paused[pair(e)]);
    due.forEach((e, i) => ranked.push({ e, key: [i + 1 - room, -room, dueWhileDown(e), -e.dueAgoMs] }));
  }
  return ranked
    .filter(({ e }) => !c.fullOrigins[e.origin] && !c.fullPairs[pair(e)])
    .sort((a, b) => compareKeys(a.key, b.key))
    .slice(0, c.limit)
    .map(({ e }) => e.id)
    .sort();
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

function sharesOf(c: Case): ClaimShares {
  return {
    teamMax: TEAM_MAX,
    destinationMax: 1000,
    pairMax: 1000,
    teams: c.rooms.flatMap((room, team) => (room === undefined ? [] : [{ teamId: teams[team]!, room }])),
    destinations: c.fullOrigins.flatMap((full, n) => (full ? [{ origin: origin(n), room: 0 }] : [])),
    pairs: c.fullPairs.flatMap((full, p) =>
      full
        ? [{ teamId: teams[Math.floor(p / ORIGINS)]!, origin: origin(p % ORIGINS), held: 3, room: 0 }]
        : [],
    ),
  };
}

async function seed(c: Case): Promise<void> {
  const em = orm.em.fork();
  await rawQuery(em, 'delete from events where team_id = any($1::uuid[])', [teams]);
  await rawQuery(em, 'delete from destinations where team_id = any($1::uuid[])', [teams]);
  await rawQuery(
    em,
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select e.id, e.team_id, 0, $1::timestamptz - e.ago * interval '1 millisecond', 'pending',
            e.origin || '/hook', e.origin, 'POST', now(), now()
     from unnest($2::uuid[], $3::uuid[], $4::text[], $5::int[]) as e(id, team_id, origin, ago)`,
    [
      new Date(now),
      c.events.map((e) => e.id),
      c.events.map((e) => teams[e.team]),
      c.events.map((e) => origin(e.origin)),
      c.events.map((e) => e.dueAgoMs),
    ],
  );
  const paused = c.paused.flatMap((p, n) => (p ? [n] : []));
  await rawQuery(
    em,
    `insert into destinations (team_id, origin, paused)
     select * from unnest($1::uuid[], $2::text[], $3::boolean[])`,
    [
      paused.map((p) => teams[Math.floor(p / ORIGINS)]),
      paused.map((p) => origin(p % ORIGINS)),
      paused.map(() => true),
    ],
  );
}

const oneIn = (n: number) => fc.integer({ min: 1, max: n }).map((draw) => draw === 1);

const caseOf = fc
  .uniqueArray(fc.integer({ min: 1, max: 60_000 }), { minLength: 0, maxLength: 40 })
  .chain((agos) =>
    fc.record({
      events: fc.tuple(
        ...agos.map((dueAgoMs) =>
          fc.record({
            id: fc.constant(randomUUID()),
            team: fc.integer({ min: 0, max: TEAMS - 1 }),
            origin: fc.integer({ min: 0, max: ORIGINS - 1 }),
            dueAgoMs: fc.constant(dueAgoMs),
          }),
        ),
      ),
      limit: fc.integer({ min: 1, max: 12 }),
      rooms: fc.array(fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }), {
        minLength: TEAMS,
        maxLength: TEAMS,
      }),
      fullOrigins: fc.array(oneIn(4), { minLength: ORIGINS, maxLength: ORIGINS }),
      fullPairs: fc.array(oneIn(4), { minLength: TEAMS * ORIGINS, maxLength: TEAMS * ORIGINS }),
      paused: fc.array(oneIn(3), { minLength: TEAMS * ORIGINS, maxLength: TEAMS * ORIGINS }),
      servedSinceAgoMs: fc.integer({ min: 0, max: 60_000 }),
    }),
  );

describe('a backlog claim', () => {
  it('takes the events its order reaches, as if it had ranked every team’s due events', async () => {
    await fc.assert(
      fc.asyncProperty(caseOf, async (c) => {
        await seed(c);
        const options: ClaimOptions = {
          limit: c.limit,
          leaseMs: 60_000,
          leaseToken: randomUUID(),
          owner: 1,
          shares: sharesOf(c),
          servedSince: new Date(now - c.servedSinceAgoMs),
        };
        const claimed = await rolledBack(orm, (tx) => claimBacklog(tx, options));
        expect(claimed.map((attempt) => attempt.id).sort()).toEqual(expectedClaim(c));
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('a backlog claim among many due teams', () => {
  it('looks at the destinations of about the events it can take, not of every team’s first few', async () => {
    const DUE_TEAMS = 30;
    const PER_TEAM = 5;
    const LIMIT = 3;
    const em = orm.em.fork();
    await rawQuery(em, 'delete from events where team_id = any($1::uuid[])', [teams]);
    await rawQuery(em, 'delete from destinations where team_id = any($1::uuid[])', [teams]);
    for (let n = 0; n < DUE_TEAMS; n++) {
      const teamId = await makeTeam(orm.em.fork(), `many ${n}`);
      for (let o = 0; o < PER_TEAM; o++) {
        const at = new Date(now - 60_000 + n * 100 + o);
        await makeDueEvents(orm.em.fork(), {
          teamId,
          origin: `https://many-${n}-${o}.example.com`,
          count: 1,
          at,
        });
      }
      // Answered calls to each, so that the claim reads a row for every pair it looks at.
      await rawQuery(
        orm.em.fork(),
        `insert into destinations (team_id, origin, last_call_at, last_status)
         select $1, 'https://many-' || $2::int || '-' || o || '.example.com', now(), 'success'
         from generate_series(0, $3::int - 1) as o`,
        [teamId, n, PER_TEAM],
      );
    }
    await rawQuery(em, 'analyze destinations');
    const { result, grew } = await countedDuring(
      orm,
      `select idx_tup_fetch as probes from pg_stat_xact_user_tables where relname = 'destinations'`,
      (tx) => claimBacklog(tx, unsharedClaim(LIMIT)),
    );
    expect(result).toHaveLength(LIMIT);
    // Each team's first LIMIT events to distinct origins: 90 pairs looked at, ranking them all.
    expect(grew.probes).toBeLessThan(3 * LIMIT);
  });
});
