import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDueEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { nextReleaseInMs } from './destination-reconcile.js';

// The scheduler releases a destination when its hold ends (worker/hold-ends.ts), at the time this
// statement gives: an open circuit's cool-down or a parked row's Retry-After still running.

const ORIGIN = 'https://held.example.com';

let database: TestDatabase;
let orm: MikroORM;
let team: string;

const next = () => nextReleaseInMs(orm.em.fork());
const sql = (text: string, params: unknown[] = []) => rawQuery(orm.em.fork(), text, params);
const circuit = (state: string, openUntil: string) =>
  sql(`update destinations set circuit = $2, open_until = now() + $3::interval where team_id = $1`, [
    team,
    state,
    openUntil,
  ]);
const retryAfter = (until: string | null) =>
  sql(`update destinations set retry_after_until = now() + $2::interval where team_id = $1`, [team, until]);
const parkAll = (until: string | null) =>
  sql(`update event_queue set parked_until = $2 where team_id = $1`, [team, until]);

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  team = await makeTeam(orm.em.fork(), 'held');
  await sql(`insert into destinations (team_id, origin) values ($1, $2)`, [team, ORIGIN]);
  await makeDueEvents(orm.em.fork(), { teamId: team, origin: ORIGIN, count: 3, at: new Date() });
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});
beforeEach(async () => {
  await circuit('closed', '-1 minute');
  await retryAfter(null);
  await parkAll('infinity');
});

describe('when the next hold of a destination ends', () => {
  it('is never while nothing is held for a time: rows parked until resumed, circuits closed', async () => {
    expect(await next()).toBeNull();
  });

  it('is when an open circuit’s cool-down ends', async () => {
    await circuit('open', '5 seconds');
    const inMs = await next();
    expect(inMs).toBeGreaterThan(4000);
    expect(inMs).toBeLessThanOrEqual(5000);
  });

  it('is when the first parked row’s Retry-After ends, if earlier', async () => {
    await circuit('open', '5 seconds');
    await sql(
      `update event_queue set parked_until = now() + interval '2 seconds'
       where event_id = (select event_id from event_queue where team_id = $1 limit 1)`,
      [team],
    );
    const inMs = await next();
    expect(inMs).toBeGreaterThan(1000);
    expect(inMs).toBeLessThanOrEqual(2000);
  });

  it('is when a destination’s Retry-After ends, before a claim parks any row for it', async () => {
    await parkAll(null);
    await retryAfter('3 seconds');
    const inMs = await next();
    expect(inMs).toBeGreaterThan(2000);
    expect(inMs).toBeLessThanOrEqual(3000);
  });

  it('leaves out the ends already past: the reconcile released them or has nothing to probe with', async () => {
    await circuit('open', '-1 second');
    await retryAfter('-1 second');
    await parkAll(new Date(Date.now() - 1000).toISOString());
    expect(await next()).toBeNull();
  });
});
