import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimDue } from './claims.js';

// bench/destinations: team A's backlog to an origin, at its share of that origin, filled a slot
// claim's look-ahead, and team B's events due in the same second to the same origin waited seconds.

const ORIGIN = 'https://shared.example.com';
const PAIR_MAX = 37;

let database: TestDatabase;
let orm: MikroORM;
let teamA: string;
let teamB: string;
const slotStart = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  [teamA, teamB] = [await makeTeam(orm.em.fork(), 'a'), await makeTeam(orm.em.fork(), 'b')];
  const at = (offsetMs: number) => new Date(slotStart.getTime() + offsetMs);
  // Team A's come first.
  await makeDueEvents(orm.em.fork(), { teamId: teamA, origin: ORIGIN, count: 500, at: at(0) });
  await makeDueEvents(orm.em.fork(), { teamId: teamB, origin: ORIGIN, count: 5, at: at(500) });
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('a slot claim', () => {
  it('finds the other teams’ events behind the backlog of a team at its share of their origin', async () => {
    const claimed = await claimDue(orm.em.fork(), {
      limit: 10,
      leaseMs: 60_000,
      leaseToken: randomUUID(),
      owner: 1,
      from: slotStart,
      before: new Date(slotStart.getTime() + 1000),
      shares: {
        teamMax: 1000,
        destinationMax: 50,
        pairMax: PAIR_MAX,
        teams: [{ teamId: teamA, room: 1000 - PAIR_MAX }],
        destinations: [{ origin: ORIGIN, room: 50 - PAIR_MAX }],
        pairs: [{ teamId: teamA, origin: ORIGIN, held: PAIR_MAX, room: 0 }],
      },
    });
    expect(claimed.map((attempt) => attempt.teamId)).toEqual(Array.from({ length: 5 }, () => teamB));
  });
});

describe('a claim for an origin not known to answer', () => {
  const FRESH = 'https://fresh.example.com';
  // A slot of its own: the other teams' events are not among its candidates.
  const freshSlot = new Date(slotStart.getTime() - 2000);
  const claimFresh = () =>
    claimDue(orm.em.fork(), {
      limit: 100,
      leaseMs: 60_000,
      leaseToken: randomUUID(),
      owner: 1,
      from: freshSlot,
      before: new Date(freshSlot.getTime() + 1000),
      shares: {
        teamMax: 1000,
        destinationMax: 1000,
        pairMax: 750,
        untriedMax: 10,
        teams: [],
        destinations: [],
        pairs: [],
      },
    });

  it('takes no more than may fail before the circuit opens, and the share once a call answered', async () => {
    const team = await makeTeam(orm.em.fork(), 'fresh');
    await makeDueEvents(orm.em.fork(), { teamId: team, origin: FRESH, count: 30, at: freshSlot });
    expect(await claimFresh()).toHaveLength(10);
    await rawQuery(
      orm.em.fork(),
      `insert into destinations (team_id, origin, last_call_at, last_status) values ($1, $2, now(), 'success')`,
      [team, FRESH],
    );
    expect(await claimFresh()).toHaveLength(20);
  });
});
