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
// Class 3 is taken in SQL only, at commit: the slots of a team's pending quotas (migration
// exact_quotas), so that commits far from the limits need not wait for one another.

async function lock(tx: EntityManager, kind: number, id: string): Promise<void> {
  await rawQuery(tx, 'select pg_advisory_xact_lock($1::int, hashtext($2::text))', [kind, id]);
}

/**
 * Serializes the quota checks of one team (active crons, API keys; its pending events and bytes
 * are checked under slots of class 3, all of them taken near the limits).
 */
export function lockTeamQuotas(tx: EntityManager, teamId: string): Promise<void> {
  return lock(tx, LockClass.TeamQuotas, teamId);
}

/** Serializes the checks of how many teams one user belongs to. */
export function lockUserMemberships(tx: EntityManager, userId: string): Promise<void> {
  return lock(tx, LockClass.UserMemberships, userId);
}
