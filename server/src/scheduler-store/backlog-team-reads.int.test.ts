import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDueEvents, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { indexReads } from '../../test/index-reads.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog } from './claims.js';

// bench/destinations `shares`, 2026-11-29: with two teams in the queue's statistics, the planner
// expected each team's rows early in the due index of all teams and read that, filtering by team. The
// punctual team, due just after the other's 20,000, read all of them in every backlog claim.

const BACKLOG = 3000;
const PUNCTUAL = 3;

let database: TestDatabase;
let orm: MikroORM;
let busy: string;
let punctual: string;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  [busy, punctual] = [await makeTeam(orm.em.fork(), 'busy'), await makeTeam(orm.em.fork(), 'punctual')];
  const due = Date.now() - 1000;
  await makeDueEvents(orm.em.fork(), {
    teamId: busy,
    origin: 'https://busy.example.com',
    count: BACKLOG,
    at: new Date(due),
  });
  await makeDueEvents(orm.em.fork(), {
    teamId: punctual,
    origin: 'https://punctual.example.com',
    count: PUNCTUAL,
    at: new Date(due + 100),
  });
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
