import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type AttemptRecord, Timers } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endedAttempt, makeCrons, makeEvents, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { indexReads } from '../../test/index-reads.js';
import { pageOfCrons } from '../crons/cron-store.js';
import { createOrm } from '../db/orm.js';
import { rawQuery } from '../shared/raw-query.js';
import { recordOutcomes } from './record-outcomes.js';

// A cron's last run is read from its latest ended occurrence (events/store/cron-runs.ts). The
// statistics of `events` may be older than its rows: here they were taken before any event of the
// team had ended, as on a young database or before autovacuum's next analyze after a burst. With the
// condition "ended" spelled as the expiry index's predicate, the planner then took that index (it
// holds only ended events, so it looked nearly empty) and read every ended event of the team for
// each cron: the first minute of 10,000 new crons (bench/burst) read ~1,500 entries for each, 940,000
// pages in a batch of 500 outcomes, 700 of its 800 ms.

const FINISHED = 4_000;
const NEW_CRONS = 50;

let database: TestDatabase;
let orm: MikroORM;
let team: string;
let newCrons: { id: string }[];
let occurrences: { id: string; leaseToken: string | null }[];

const ranAt = new Date();

const succeeded = (event: { id: string; leaseToken: string | null }): AttemptRecord =>
  endedAttempt(event, { executedAt: ranAt });

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  const em = orm.em.fork();
  // Only the analyze below takes statistics.
  await rawQuery(em, 'alter table events set (autovacuum_enabled = false)');
  team = await makeTeam(em, 'many runs');
  newCrons = await makeCrons(em, team, NEW_CRONS);
  occurrences = await makeEvents(em, team, NEW_CRONS, (i) => ({
    cronId: newCrons[i]?.id ?? null,
    scheduledAt: new Date(Date.now() - 1000),
    leaseToken: randomUUID(),
    leaseExpiresAt: new Date(Date.now() + 600_000),
  }));
  await rawQuery(em, 'analyze events');
  const [oldCron] = await makeCrons(em, team, 1);
  await makeEvents(em, team, FINISHED, (i) => ({
    cronId: i % 2 === 0 ? (oldCron?.id ?? null) : null,
    scheduledAt: new Date(Date.now() - (i + 1) * 60_000),
    executedAt: new Date(Date.now() - (i + 1) * 60_000 + 5),
    status: 'success',
  }));
}, 120_000);

afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe(`a cron's last run, with statistics taken before any of the team's ${FINISHED} events ended`, () => {
  it("recording new crons' first occurrences reads their own occurrences, not the team's history", async () => {
    const { result, reads } = await indexReads(orm, 'events', (tx) =>
      recordOutcomes(tx, new Timers({ shards: 1 }), occurrences.map(succeeded)),
    );
    expect(result).toHaveLength(NEW_CRONS);
    // Each outcome reads a few entries (its event, its cron's occurrences); the team's history
    // would be FINISHED for each cron.
    expect(reads).toBeLessThan(NEW_CRONS * 20);
    const runs = await rawQuery<{ last_run_at: string }>(
      orm.em.fork(),
      'select last_run_at from crons where id = any($1)',
      [newCrons.map((cron) => cron.id)],
    );
    expect(runs.map((cron) => new Date(cron.last_run_at).getTime())).toEqual(
      newCrons.map(() => ranAt.getTime()),
    );
  });

  it("a page of the team's crons reads each cron's latest occurrences only", async () => {
    const { result, reads } = await indexReads(orm, 'events', (tx) =>
      pageOfCrons(tx, team, { isActive: undefined, limit: 50, offset: 0 }),
    );
    expect(result.length).toBeGreaterThan(0);
    expect(reads).toBeLessThan(result.length * 20);
  });
});
