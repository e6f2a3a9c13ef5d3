import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDueEvents, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { indexPages, indexReads } from '../../test/index-reads.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog } from './claims.js';

// bench/destinations `shares`, 2026-11-29: with two teams in the queue's statistics, the planner
// expected each team's rows early in the due index of all teams and read that, filtering by team. The
// punctual team, due just after the other's 20,000, read all of them in every backlog claim.

const BACKLOG = 3000;
const PUNCTUAL = 3;
/** Each team's events still to come: a claim must not read them (issue 25, "waiting work costs nothing"). */
const UPCOMING = 20_000;

let database: TestDatabase;
let orm: MikroORM;
let busy: string;
let punctual: string;
let due: number;

/** `count` events of `teamId` at `at` (ms), to its own origin. */
const eventsOf = (teamId: string, count: number, at: number) =>
  makeDueEvents(orm.em.fork(), {
    teamId,
    origin: `https://${teamId === busy ? 'busy' : 'punctual'}.example.com`,
    count,
    at: new Date(at),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  [busy, punctual] = [await makeTeam(orm.em.fork(), 'busy'), await makeTeam(orm.em.fork(), 'punctual')];
  due = Date.now() - 1000;
  await eventsOf(busy, BACKLOG, due);
  await eventsOf(punctual, PUNCTUAL, due + 100);
  await rawQuery(orm.em.fork(), 'analyze event_queue');
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

it("reads a team's due rows in its own range, not another team's due before them (backlog claim)", async () => {
  const { result: claimed, reads } = await indexReads(orm, 'event_queue', (tx) =>
    claimBacklog(tx, unsharedClaim(20)),
  );
  expect(claimed.filter((attempt) => attempt.teamId === punctual)).toHaveLength(PUNCTUAL);
  // Each team's range up to the limit, the 100 oldest due to find the teams, the leases' probes:
  // about 200 here; reading the busy team's backlog for the punctual one was over 3,000.
  expect(reads).toBeLessThan(BACKLOG / 5);
});

it("stops reading a team's range at what is due: its events to come cost no page (backlog claim)", async () => {
  // bench/scale `catch-up`, 2026-11-30: the bounds on `(team_id, scheduled_at)` did not end the scan
  // (beside the team's equality, a row comparison's later column cannot), and each claim read every
  // team's events to come, 2M in all (38,000 pages; 114 ms a claim at the mean, up to 2 s).
  for (const team of [busy, punctual]) await eventsOf(team, UPCOMING, due + 3_600_000);
  await eventsOf(punctual, PUNCTUAL, due + 200);
  await rawQuery(orm.em.fork(), 'analyze event_queue');
  const claim = unsharedClaim(BACKLOG + 100);
  const { result: claimed, pages } = await indexPages(orm, 'event_queue_team_ready_idx', (tx) =>
    claimBacklog(tx, {
      ...claim,
      shares: { ...claim.shares, teamMax: BACKLOG, destinationMax: BACKLOG, pairMax: BACKLOG },
      from: new Date(due - 60_000),
      servedSince: new Date(due - 30_000),
    }),
  );
  // Every due event but the first claim's: each team's range reaches past its last due one.
  expect(claimed).toHaveLength(BACKLOG + 2 * PUNCTUAL - 20);
  // The due entries' pages (~15) and each team's probes; the events to come fill ~90 pages a team.
  expect(pages).toBeLessThan(60);
});
