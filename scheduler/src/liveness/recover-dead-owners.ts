import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { OwnerRegistry } from './owner-registry.js';

export interface DeadOwnerRecoveryDeps {
  owners: OwnerRegistry;
  pool: Pool;
  logger: Logger;
  /** Hands back (or fails, after too many claims) the attempts held by these owners; returns how many. */
  recoverLeases: (deadOwners: number[]) => Promise<number>;
  /** How many attempts one recovery call handles at most: a full batch means there may be more. */
  batch: number;
}

/**
 * Recovers the leases of scheduler processes that died (their liveness lock is free) without waiting
 * for the leases to expire, and unlocks the timer jobs they held. Returns how many attempts went back.
 */
export async function recoverDeadOwners(deps: DeadOwnerRecoveryDeps): Promise<number> {
  const { owners, pool, logger } = deps;
  const dead = await owners.takeDead();
  if (dead.length === 0) return 0;
  let total = 0;
  let recovered = false;
  try {
    const ids = dead.map((owner) => owner.id);
    let count: number;
    do {
      count = await deps.recoverLeases(ids);
      total += count;
    } while (count === deps.batch);
    await pool.query(
      'update agenda_jobs set locked_at = null where locked_at is not null and last_modified_by = any($1)',
      [dead.map((owner) => owner.name)],
    );
    recovered = true;
  } finally {
    await owners.release(dead, { recovered });
  }
  logger.warn(
    { owners: dead.map((owner) => owner.name), attempts: total },
    'recovered dead scheduler processes',
  );
  return total;
}
