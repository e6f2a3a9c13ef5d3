import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../../test/harness.js';
import { createOrm } from '../../db/orm.js';
import { rawQuery } from '../../shared/raw-query.js';
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

async function team(name: string): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    orm.em.fork(),
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     values (gen_random_uuid(), $1, 'whsec_x', now(), now()) returning id`,
    [name],
  );
  return row!.id;
}

/** `count` events of `teamId` due in the slot, `offsetMs` after its start (team A's come first). */
async function due(teamId: string, count: number, offsetMs: number): Promise<void> {
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, $2::timestamptz + n * interval '1 microsecond', 'pending', $3, $4, 'POST', now(), now()
     from generate_series(1, $5) as n`,
    [teamId, new Date(slotStart.getTime() + offsetMs), `${ORIGIN}/hook`, ORIGIN, count],
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  [teamA, teamB] = [await team('a'), await team('b')];
  await due(teamA, 500, 0);
  await due(teamB, 5, 500);
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
