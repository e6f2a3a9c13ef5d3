import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam, unsharedClaim } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { countedDuring, indexReads } from '../../test/index-reads.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { claimBacklog, claimDue } from './claims.js';

// bench/delivery, 2026-11-26: with the queue's statistics taken while it was nearly empty, the
// planner read a claims' partial index whole to find the few rows a claim had chosen by id (a claim
// of 37 read 20,000 entries, 8 ms instead of 1.5), because the index's predicate matched the step's.

const DUE = 2000;
const LIMIT = 5;
const BUSY = 'https://busy.example.com';
const PAUSED = 'https://paused.example.com';

let database: TestDatabase;
let orm: MikroORM;
let teamA: string;
let teamB: string;
const slotStart = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);

const DESTINATION_READS = `select seq_tup_read + coalesce(idx_tup_fetch, 0) as reads
  from pg_stat_xact_user_tables where relname = 'destinations'`;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  // Statistics of an empty queue, as between bursts; no autovacuum to refresh them meanwhile.
  await rawQuery(orm.em.fork(), 'alter table event_queue set (autovacuum_enabled = false)');
  await rawQuery(orm.em.fork(), 'analyze event_queue');
  [teamA, teamB] = [await makeTeam(orm.em.fork(), 'a'), await makeTeam(orm.em.fork(), 'b')];
  await rawQuery(orm.em.fork(), `insert into destinations (team_id, origin, paused) values ($1, $2, true)`, [
    teamB,
    PAUSED,
  ]);
  const at = (offsetMs: number) => new Date(slotStart.getTime() + offsetMs);
  await makeDueEvents(orm.em.fork(), { teamId: teamB, origin: PAUSED, count: 3, at: at(0) });
  await makeDueEvents(orm.em.fork(), { teamId: teamA, origin: BUSY, count: DUE, at: at(100) });
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('a claim among many due events', () => {
  it('reads about the rows it looks at, not the whole due index (slot claim, with a paused destination)', async () => {
    const { result, reads } = await indexReads(orm, 'event_queue', (tx) =>
      claimDue(tx, {
        ...unsharedClaim(LIMIT),
        from: slotStart,
        before: new Date(slotStart.getTime() + 1000),
      }),
    );
    expect(result.map((attempt) => attempt.teamId)).toEqual(Array.from({ length: LIMIT }, () => teamA));
    const [parked] = await rawQuery<{ n: string }>(
      orm.em.fork(),
      `select count(*) as n from event_queue where team_id = $1 and parked_until = 'infinity'`,
      [teamB],
    );
    expect(Number(parked?.n)).toBe(3);
    // The look-ahead (4× the limit), the probes of the chosen rows and of the parked ones.
    expect(reads).toBeLessThan(100);
  });

  it('reads about the rows it looks at, not the whole due index (backlog claim)', async () => {
    const { result, reads } = await indexReads(orm, 'event_queue', (tx) =>
      claimBacklog(tx, unsharedClaim(LIMIT)),
    );
    expect(result).toHaveLength(LIMIT);
    // The look-ahead, and the 100 oldest due events read to find the teams with any due.
    expect(reads).toBeLessThan(200);
  });

  // bench/scale, 100 teams with pending events: the backlog claim probed every team's due ranges,
  // 4.2 ms a claim on average and a third of them over 5 ms.
  it('passes over a team whose events all wait for later with one probe (backlog claim)', async () => {
    const WAITING_TEAMS = 40;
    const later = new Date(Date.now() + 3_600_000);
    for (let n = 0; n < WAITING_TEAMS; n++) {
      const team = await makeTeam(orm.em.fork(), `waiting ${n}`);
      await makeDueEvents(orm.em.fork(), { teamId: team, origin: BUSY, count: 2, at: later });
    }
    const { result, scans } = await indexReads(orm, 'event_queue', (tx) =>
      claimBacklog(tx, unsharedClaim(LIMIT)),
    );
    expect(result.map((attempt) => attempt.teamId)).toEqual(Array.from({ length: LIMIT }, () => teamA));
    // The waiting teams' probes alone, not their due ranges too: 86 index scans here, 166 with them.
    expect(scans).toBeLessThan(3 * WAITING_TEAMS);
  });

  it('finds the teams with events due in the due index while few are due, probing no other team (backlog claim)', async () => {
    await rawQuery(
      orm.em.fork(),
      `delete from events where id in (
         select event_id from event_queue where team_id = $1 and lease_token is null order by scheduled_at offset 10)`,
      [teamA],
    );
    const { result, scans } = await indexReads(orm, 'event_queue', (tx) =>
      claimBacklog(tx, unsharedClaim(LIMIT)),
    );
    expect(result.map((attempt) => attempt.teamId)).toEqual(Array.from({ length: LIMIT }, () => teamA));
    // The due index's range, team A's ranges and the probes of the rows leased: 54 with a probe per team.
    expect(scans).toBeLessThan(20);
  });

  // bench/scale: a slot claim hashed the whole destinations table (2,000-4,000 rows) to learn whether
  // the few teams at origins it looked at had answered; or probed every pair again for each of its
  // candidates (500 among 248 pairs: 124,000 probes, 250 ms).
  it('reads the recorded calls of the destinations it looks at once each, not the whole table (both claims)', async () => {
    const ORIGINS = 30;
    await rawQuery(
      orm.em.fork(),
      `insert into destinations (team_id, origin, last_call_at, last_status)
       select $1, 'https://d' || n || '.example.com', now(), 'success' from generate_series(1, 3000) as n`,
      [teamB],
    );
    await rawQuery(orm.em.fork(), 'analyze destinations');
    const due = async () => {
      for (let n = 1; n <= ORIGINS; n++)
        await makeDueEvents(orm.em.fork(), {
          teamId: teamB,
          origin: `https://d${n}.example.com`,
          count: 3,
          at: slotStart,
        });
    };
    const read = async (claim: (tx: EntityManager) => Promise<unknown[]>) => {
      const { result, grew } = await countedDuring(orm, DESTINATION_READS, claim);
      return { claimed: result.length, reads: grew.reads ?? Number.NaN };
    };
    const options = unsharedClaim(500);
    const slot = { ...options, from: slotStart, before: new Date(slotStart.getTime() + 1000) };
    await due();
    const slotClaim = await read((tx) => claimDue(tx, slot));
    await due();
    const backlogClaim = await read((tx) => claimBacklog(tx, options));
    for (const { claimed, reads } of [slotClaim, backlogClaim]) {
      expect(claimed).toBeGreaterThanOrEqual(3 * ORIGINS);
      // One probe per team at an origin.
      expect(reads).toBeLessThan(2 * ORIGINS);
    }
  });
});
