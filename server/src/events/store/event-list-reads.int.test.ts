import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventSort, EventStatus } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCron, makeTeam } from '../../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../../test/harness.js';
import { indexReads } from '../../../test/index-reads.js';
import { createOrm } from '../../db/orm.js';
import { rawQuery } from '../../shared/raw-query.js';
import { type EventFilter, pageOfEventsInChunks } from './event-queries.js';
import type { EventRow } from './event-row.js';

// bench/scale, 2026-11-27: `GET /events?status=success` of the team with half the rows took 26 ms
// against 0.5 ms for the other statuses: its newest events were pending, and the planner walked the
// team's (team_id, created_at) index filtering on the status, 25,709 rows read for a page of 50.
// On this smaller table the planner errs the same way for `-scheduled_at` (4,056 entries read for 50
// when the page was read in one statement); the other cases guard the rest of the plans.

const FINISHED = 20_000;
const WAITING = 4_000;
const CRON_EVENTS = 500;
const PAGE = 50;

let database: TestDatabase;
let orm: MikroORM;
let teamId: string;
let cronId: string;

/** The first page and the `events` index entries read for it, counted within its transaction. */
async function firstPage(filter: EventFilter, sort: EventSort): Promise<{ rows: EventRow[]; reads: number }> {
  const { result: rows, reads } = await indexReads(orm, 'events', async (tx) => {
    const page: EventRow[] = [];
    for await (const chunk of pageOfEventsInChunks(tx, filter, { page: 0, limit: PAGE, sort }))
      page.push(...chunk);
    return page;
  });
  return { rows, reads };
}

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  teamId = await makeTeam(orm.em.fork(), 'big');
  // Months of finished events, then the events created since, all still waiting for their time.
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, attempt, scheduled_at, executed_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, t, t, case when n % 10 = 0 then 'failed' else 'success' end,
            'https://a.example.com/hook', 'https://a.example.com', 'POST', t, t
     from generate_series(1, $2) as n, lateral (select now() - interval '30 days' + n * interval '1 minute') as s(t)`,
    [teamId, FINISHED],
  );
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, now() + n * interval '1 minute', 'pending',
            'https://a.example.com/hook', 'https://a.example.com', 'POST', now() - interval '1 day' + n * interval '1 second', now()
     from generate_series(1, $2) as n`,
    [teamId, WAITING],
  );
  // A cron's occurrences over the same months, one an hour, among the team's other events.
  cronId = (await makeCron(orm.em.fork(), teamId)).id;
  await rawQuery(
    orm.em.fork(),
    `insert into events (id, team_id, cron_id, attempt, scheduled_at, executed_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, $2, 0, t, t, 'success', 'https://a.example.com/hook', 'https://a.example.com', 'POST', t, t
     from generate_series(1, $3) as n, lateral (select now() - interval '30 days' + n * interval '1 hour') as s(t)`,
    [teamId, cronId, CRON_EVENTS],
  );
  await rawQuery(orm.em.fork(), 'analyze events');
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('a first page of events with a status', () => {
  const cases: [EventStatus, EventSort][] = [
    ['success', 'created_at'],
    ['success', 'scheduled_at'],
    ['success', '-scheduled_at'],
    ['failed', 'created_at'],
    ['pending', 'created_at'],
    ['pending', '-scheduled_at'],
  ];
  it.each(cases)('reads about the page it returns: status=%s, sort=%s', async (status, sort) => {
    const { rows, reads } = await firstPage({ teamId, status }, sort);
    expect(rows).toHaveLength(PAGE);
    expect(rows.every((row) => row.status === status)).toBe(true);
    expect(reads).toBeLessThan(PAGE * 3);
  });

  it('keeps the page in its order: newest created first, the id breaking ties', async () => {
    const { rows } = await firstPage({ teamId, status: 'success' }, 'created_at');
    const expected = await rawQuery<{ id: string }>(
      orm.em.fork(),
      `select id from events where team_id = $1 and status = 'success' order by created_at desc, id desc limit $2`,
      [teamId, PAGE],
    );
    expect(rows.map((row) => row.id)).toEqual(expected.map((row) => row.id));
  });
});

describe('a first page of a cron’s events', () => {
  // bench/scale: ids first, then each row by its primary key, read every entry twice; in scheduled
  // order, the whole cron (1,011 rows for a page of 50) or the team's events by time.
  it.each<EventSort>(['created_at', 'scheduled_at', '-scheduled_at'])(
    'reads one index entry per event it returns: sort=%s',
    async (sort) => {
      const { rows, reads } = await firstPage({ teamId, cronId }, sort);
      expect(rows).toHaveLength(PAGE);
      expect(rows.every((row) => row.cron_id === cronId)).toBe(true);
      expect(reads).toBe(PAGE);
    },
  );
});
