import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import {
  NEVER_PAUSES,
  failureStreak,
  failureStreakSql,
  pausesCron,
  pausesCronSql,
} from './cron-health.rules.js';
import { rawQuery } from '../shared/raw-query.js';

// The outcome statement is built from the SQL fragments; the functions are what the unit tests
// pin down. Both must say the same of every case.

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 1);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

const STREAK_SQL = `select ${failureStreakSql({
  previous: '$1::int',
  lastSuccess: '$2::timestamptz',
  failuresSinceSuccess: '$3::int',
})} as streak`;
const PAUSES_SQL = `select ${pausesCronSql({
  isActive: '$1::boolean',
  pauseAfterFailures: '$2::int',
  streak: '$3::int',
})} as pauses`;

describe('the cron health fragments', () => {
  it.each([
    [0, false, 1],
    [2, false, 3],
    [7, true, 0],
    [7, true, 2],
  ])(
    'count the streak as failureStreak does after %i (succeeded: %s, %i failures after)',
    async (previous, succeeded, failures) => {
      const lastSuccess = succeeded ? new Date() : null;
      const [row] = await rawQuery<{ streak: number }>(orm.em.fork(), STREAK_SQL, [
        previous,
        lastSuccess,
        failures,
      ]);
      expect(row?.streak).toBe(failureStreak(previous, { succeeded, failuresSinceSuccess: failures }));
    },
  );

  it.each([
    [true, 3, 2],
    [true, 3, 3],
    [true, 1, 9],
    [false, 3, 5],
    [true, null, NEVER_PAUSES - 1],
  ])(
    'pause as pausesCron does (active: %s, threshold %s, streak %i)',
    async (isActive, threshold, streak) => {
      const [row] = await rawQuery<{ pauses: boolean }>(orm.em.fork(), PAUSES_SQL, [
        isActive,
        threshold,
        streak,
      ]);
      expect(row?.pauses).toBe(pausesCron({ isActive, pauseAfterFailures: threshold }, streak));
    },
  );
});
