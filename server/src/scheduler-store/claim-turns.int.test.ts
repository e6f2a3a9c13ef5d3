import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ClaimShares, ClaimedAttempt } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { rolledBack } from '../../test/rolled-back.js';
import { createOrm } from '../db/orm.js';
import { claimBacklog, claimDue } from './claims.js';

// bench/scale, slow scenario, 2026-11-27: with DELIVERY_CONCURRENCY full of eight teams' calls to
// slow receivers, each claim took the few places just freed, and among the teams' first events the
// oldest won: always a busy team's backlog. Another team's punctual events waited 73 s (p99).

let database: TestDatabase;
let orm: MikroORM;
let busy: string;
let idle: string;
const now = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  [busy, idle] = [await makeTeam(orm.em.fork(), 'busy'), await makeTeam(orm.em.fork(), 'idle')];
  // Within one slot: some of the busy team's calls, the idle team's two, then more of the busy's.
  const due = (teamId: string, origin: string, count: number, agoMs: number) =>
    makeDueEvents(orm.em.fork(), { teamId, origin, count, at: new Date(now - agoMs) });
  await due(busy, 'https://slow.example.com', 5, 600);
  await due(idle, 'https://fast.example.com', 2, 500);
  await due(busy, 'https://slow.example.com', 15, 400);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

function options(limit: number) {
  // The busy team holds 40 of its 50 places; the idle one none.
  const shares: ClaimShares = {
    teamMax: 50,
    destinationMax: 1000,
    pairMax: 1000,
    teams: [{ teamId: busy, room: 10 }],
    destinations: [],
    pairs: [],
  };
  return { limit, leaseMs: 60_000, leaseToken: randomUUID(), owner: 1, shares };
}

/** How many of each team's events `claim` took, its leases rolled back. */
async function teamsClaimed(
  claim: (tx: EntityManager) => Promise<ClaimedAttempt[]>,
): Promise<Record<string, number>> {
  const teams = (await rolledBack(orm, claim)).map((attempt) => attempt.teamId);
  return Object.fromEntries([busy, idle].map((team) => [team, teams.filter((id) => id === team).length]));
}

describe('among the teams’ first events, a claim', () => {
  it('serves the team holding fewest calls first, not the oldest backlog (backlog claim)', async () => {
    // Its turn's first goes to the idle team, then the busy one's, then the idle one's second.
    expect(await teamsClaimed((tx) => claimBacklog(tx, options(3)))).toEqual({ [idle]: 2, [busy]: 1 });
  });

  it('serves the team holding fewest calls first, not the oldest backlog (slot claim)', async () => {
    const slot = { from: new Date(now - 1000), before: new Date(now + 1000) };
    expect(await teamsClaimed((tx) => claimDue(tx, { ...options(3), ...slot }))).toEqual({
      [idle]: 2,
      [busy]: 1,
    });
  });
});
