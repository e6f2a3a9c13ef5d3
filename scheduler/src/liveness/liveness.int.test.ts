import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database.js';
import { eventually } from '../testing/eventually.js';
import { LOCK_NAMESPACE, OwnerRegistry, poolConnection } from './owner-registry.js';
import { recoverDeadOwners } from './recover-dead-owners.js';

let database: TestDatabase;
const logger = pino({ level: 'silent' });
const started: OwnerRegistry[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const registry of started.splice(0)) await registry.stop();
  await database.pool.query('delete from scheduler_processes');
});
afterAll(async () => {
  await database.drop();
});

async function startRegistry(name: string): Promise<OwnerRegistry> {
  const registry = new OwnerRegistry(poolConnection(database.pool), name, logger);
  started.push(registry);
  await registry.start();
  return registry;
}

const registered = async () =>
  (
    await database.pool.query<{ id: number; name: string }>(
      'select id, name from scheduler_processes order by id',
    )
  ).rows;

/**
 * The liveness lock of process `id` in this test's database only: other databases on the server have
 * processes of the same ids.
 */
const LIVENESS_LOCK = `locktype = 'advisory' and granted and classid = ${LOCK_NAMESPACE}::oid and objid = $1::oid
  and objsubid = 2 and database = (select oid from pg_database where datname = current_database())`;

/** Whether some session holds the liveness lock of process `id`. */
const lockHeld = async (id: number) =>
  (await database.pool.query(`select 1 from pg_locks where ${LIVENESS_LOCK}`, [id])).rows.length > 0;

/** Ends the session of the process holding `id`'s lock, as a crash or kill -9 would. */
async function killSessionOf(id: number): Promise<void> {
  await database.pool.query(`select pg_terminate_backend(pid) from pg_locks where ${LIVENESS_LOCK}`, [id]);
}

describe('OwnerRegistry', () => {
  it('registers a live process that holds its lock, and sees its peers and since when they serve', async () => {
    const first = await startRegistry('scheduler-a');
    const owner = first.current();
    expect(owner).toMatchObject({ epoch: 1 });
    expect(first.holds(owner?.epoch ?? 0)).toBe(true);
    expect(await registered()).toEqual([{ id: owner?.id, name: 'scheduler-a' }]);
    expect(await lockHeld(owner?.id ?? 0)).toBe(true);

    const second = await startRegistry('scheduler-b');
    await first.refreshPeers();
    await second.refreshPeers();
    expect(first.liveProcesses).toBe(2);
    expect(second.liveProcesses).toBe(2);
    // A process that joins live peers inherits their time: a rolling restart is no downtime.
    expect(second.servedSince()).toEqual(first.servedSince());
    // A live peer is not dead.
    expect(await second.takeDead()).toEqual([]);
  });

  it('deregisters on stop', async () => {
    const registry = await startRegistry('scheduler-a');
    await registry.stop();
    expect(await registered()).toEqual([]);
    expect(registry.current()).toBeUndefined();
  });
});

describe('recoverDeadOwners', () => {
  it('finds a process whose session died, hands back its leases and timer jobs, and forgets it', async () => {
    const dying = await startRegistry('scheduler-dying');
    const survivor = await startRegistry('scheduler-survivor');
    const dead = dying.current();
    if (!dead) throw new Error('the dying process did not register');
    await database.pool.query(
      `insert into agenda_jobs (name, next_run_at, locked_at, last_modified_by) values ('deliver-slot', now(), now(), $1)`,
      ['scheduler-dying'],
    );

    await killSessionOf(dead.id);
    // The dying process notices and stops for good (no reconnect to take its identity back).
    await eventually(
      () => Promise.resolve(dying.holds(dead.epoch)),
      (holds) => !holds,
    );
    await dying.stop();
    await eventually(
      () => lockHeld(dead.id),
      (held) => !held,
    );

    const recovered: number[][] = [];
    const handedBack = await recoverDeadOwners({
      owners: survivor,
      pool: database.pool,
      logger,
      batch: 100,
      recoverLeases: (owners) => {
        recovered.push(owners);
        return Promise.resolve(3);
      },
    });

    expect(recovered).toEqual([[dead.id]]);
    expect(handedBack).toBe(3);
    expect((await registered()).map((row) => row.name)).toEqual(['scheduler-survivor']);
    const jobs = await database.pool.query<{ locked_at: Date | null }>(
      `select locked_at from agenda_jobs where last_modified_by = 'scheduler-dying'`,
    );
    expect(jobs.rows).toEqual([{ locked_at: null }]);
    // Forgotten, and its lock let go: nobody recovers it twice.
    expect(await lockHeld(dead.id)).toBe(false);
    expect(await survivor.takeDead()).toEqual([]);
  });
});
