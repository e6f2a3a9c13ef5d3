import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { rawQuery } from '../shared/raw-query.js';
import { createUser } from '../users/user-store.js';
import { createUserAlone } from './accounts.service.js';
import { createApiKey, createTeam, revokeApiKey } from './teams.service.js';

let database: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await createOrm(database.connection, 4);
});
afterAll(async () => {
  await orm.close();
  await database.drop();
});

/** Waits until a statement of this database waits on a lock. */
async function someoneWaitsOnALock(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const waiting = await rawQuery(
      orm.em.fork(),
      `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (waiting.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no statement waited on a lock');
}

describe('a sign-up', () => {
  it('is a ConflictError when a simultaneous sign-up takes its email first (the unique index decides)', async () => {
    const email = 'race@example.com';
    let inserted = (): void => {};
    let release = (): void => {};
    const insertedFirst = new Promise<void>((resolve) => (inserted = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = orm.em.fork().transactional(async (tx) => {
      await createUser(tx, email, 'first', new Date());
      inserted();
      await held;
    });
    await insertedFirst;
    // Its check for the email sees no committed user; its insert waits on the first one's.
    const second = createUserAlone(orm.em.fork(), email, 'second', new Date()).then(
      () => undefined,
      (error: unknown) => error,
    );
    try {
      await someoneWaitsOnALock();
    } finally {
      release();
    }
    await first;
    expect(await second).toBeInstanceOf(ConflictError);
  });
});

describe('revoking an API key', () => {
  it('keeps its first revocation time, and answers a key of another team as not found', async () => {
    const em = orm.em.fork();
    const team = await createTeam(em, 'keys', new Date());
    const other = await createTeam(em, 'other', new Date());
    const { apiKey } = await createApiKey(em, team.id, { name: 'k' }, new Date());
    const firstTime = new Date('2030-01-01T00:00:00Z');
    await expect(revokeApiKey(em, apiKey.id, new Date(), other.id)).rejects.toBeInstanceOf(NotFoundError);
    const revoked = await revokeApiKey(em, apiKey.id, firstTime, team.id);
    const again = await revokeApiKey(em, apiKey.id, new Date('2031-01-01T00:00:00Z'));
    expect(revoked.revokedAt).toEqual(firstTime);
    expect(again).toEqual(revoked);
  });
});
