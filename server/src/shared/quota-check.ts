import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from './raw-query.js';

/**
 * Quota checks at commit (migration exact_quotas). A transaction that adds something a team quota
 * counts says so in a transaction-local setting: the team, the limits and what it adds. Triggers
 * deferred to its commit then take the team's quota lock or slots (limits/quota-locks.ts) as the
 * last locks of the transaction, count with the transaction's own rows included, and fail the
 * commit with `check_violation` on `team_quota` when a count is past its limit. Whatever the
 * transaction did before (an idempotency record, timer jobs), the count and the commit are all that
 * follow, with no round trip to the client in between.
 */

/** The team whose pending quotas a transaction asks to have checked, and their limits. */
export interface PendingQuota {
  teamId: string;
  maxEvents: number;
  maxBytes: number;
}

/** What a transaction adds to the team's pending events and their bytes. */
export interface PendingAdded {
  events: number;
  bytes: number;
}

/** A commit the check refused: the quota, its limit, the use without the refused change, and that change. */
export interface QuotaExceededAtCommit {
  quota: 'pending_events' | 'pending_bytes' | 'active_crons';
  limit: number;
  current: number;
  adding: number;
}

/** The SQL expression asking for the pending quotas' check, with the setting as a text parameter. */
export const ASK_FOR_PENDING_QUOTA = (param: string) =>
  `set_config('webhook_scheduler.pending_quota', ${param}::text, true)`;

/** The pending quotas' setting for `quota` and what the transaction adds. */
export function pendingQuotaSetting(quota: PendingQuota, added: PendingAdded): string {
  return JSON.stringify({
    team: quota.teamId,
    max_events: quota.maxEvents,
    max_bytes: quota.maxBytes,
    adding_events: added.events,
    adding_bytes: added.bytes,
  });
}

/** The pending quotas' setting for inserting `rows` (each with its `request_bytes`). */
export function pendingQuotaCheck(quota: PendingQuota, rows: { request_bytes: number }[]): string {
  const bytes = rows.reduce((sum, row) => sum + row.request_bytes, 0);
  return pendingQuotaSetting(quota, { events: rows.length, bytes });
}

/** Asks for the pending quotas' check at the commit of the caller's transaction (before it adds). */
export async function askForPendingQuota(
  tx: EntityManager,
  quota: PendingQuota,
  added: PendingAdded,
): Promise<void> {
  await rawQuery(tx, `select ${ASK_FOR_PENDING_QUOTA('$1')}`, [pendingQuotaSetting(quota, added)]);
}

/** Asks for the active crons' check at the commit of the caller's transaction (before it adds one). */
export async function askForActiveCronsQuota(
  tx: EntityManager,
  teamId: string,
  limit: number,
): Promise<void> {
  await rawQuery(tx, `select set_config('webhook_scheduler.active_crons_quota', $1::text, true)`, [
    JSON.stringify({ team: teamId, max_crons: limit }),
  ]);
}

/**
 * Asks the pending quotas' check of the caller's transaction to count exactly (every slot of the
 * team taken, so no other commit of the team is in flight), as when the team is near a limit.
 */
export async function askForExactCount(tx: EntityManager): Promise<void> {
  await rawQuery(tx, `select set_config('webhook_scheduler.quota_exact', 'on', true)`);
}

/** Whether a commit failed because the team came near a limit while it counted: it may run again, exactly. */
export function needsExactCount(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: unknown; constraint?: unknown };
    if (code === '23514' && constraint === 'team_quota_exact') return true;
  }
  return false;
}

const QUOTAS = new Set<unknown>(['pending_events', 'pending_bytes', 'active_crons']);

/** The refusal a failed commit carries when a quota check refused it, else undefined. */
export function quotaExceededAtCommit(error: unknown): QuotaExceededAtCommit | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint, detail } = cause as Error & {
      code?: unknown;
      constraint?: unknown;
      detail?: unknown;
    };
    if (code !== '23514' || constraint !== 'team_quota' || typeof detail !== 'string') continue;
    const { quota, limit, current, adding } = JSON.parse(detail) as Record<string, unknown>;
    if (!QUOTAS.has(quota)) return undefined;
    return {
      quota: quota as QuotaExceededAtCommit['quota'],
      limit: Number(limit),
      current: Number(current),
      adding: Number(adding),
    };
  }
  return undefined;
}
