import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../shared/raw-query.js';

/**
 * The locks that make quotas exact under concurrency: every transaction that adds something a
 * quota counts takes its owner's lock, counts, and commits or rolls back. Two creates of one team
 * therefore count one after the other, whichever API process serves them.
 *
 * They are transaction-scoped advisory locks, not row locks on `teams` or `users`: a `FOR UPDATE`
 * on the team row also waits for every insert that references the team (their `KEY SHARE` locks),
 * which is how concurrent cron writes deadlocked. Lock order: a quota lock is the last lock a
 * transaction takes; after it the transaction only counts and writes rows nobody else locks.
 */
const LockClass = { TeamQuotas: 1, UserMemberships: 2 } as const;

async function lock(tx: EntityManager, kind: number, id: string): Promise<void> {
  await rawQuery(tx, 'select pg_advisory_xact_lock($1::int, hashtext($2::text))', [kind, id]);
}

/** Serializes the quota checks of one team (pending events and bytes, active crons, API keys). */
export function lockTeamQuotas(tx: EntityManager, teamId: string): Promise<void> {
  return lock(tx, LockClass.TeamQuotas, teamId);
}

/** Serializes the checks of how many teams one user belongs to. */
export function lockUserMemberships(tx: EntityManager, userId: string): Promise<void> {
  return lock(tx, LockClass.UserMemberships, userId);
}
