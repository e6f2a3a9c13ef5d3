import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCrons, makeTeam } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { indexReads } from '../../test/index-reads.js';
import { createOrm } from '../db/orm.js';
import { pageOfCrons } from './cron-store.js';

// A cron's last run is read from its occurrences: a page of the list reads them for its own crons,
// not for those its offset skips.

let database: TestDatabase;
let orm: MikroORM;
let team: string;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 2);
  team = await makeTeam(orm.em.fork(), 'crons');
  await makeCrons(orm.em.fork(), team, 120, (i) => ({ createdAt: new Date(Date.now() - i * 1000) }));
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe("a page of a team's crons", () => {
  it('looks up the last run of the crons on the page only', async () => {
    const { result: page, scans } = await indexReads(orm, 'events', (tx) =>
      pageOfCrons(tx, team, { isActive: undefined, limit: 10, offset: 100 }),
    );
    expect(page).toHaveLength(10);
    expect(scans).toBe(10);
  });
});
