import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { QuotaExceededError } from '../errors.js';
import {
  type PendingQuota,
  askForExactCount,
  needsExactCount,
  quotaExceededAtCommit,
} from '../shared/quota-check.js';
import { refusalOf } from './limits.rules.js';

/** The pending quotas of a team, as the check at commit takes them. */
export function pendingQuotaOf(teamId: string, limits: TeamLimits): PendingQuota {
  return { teamId, maxEvents: limits.max_pending_events, maxBytes: limits.max_pending_bytes };
}

async function refusing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const exceeded = quotaExceededAtCommit(error);
    if (!exceeded) throw error;
    const refusal = refusalOf(exceeded.quota, exceeded.limit, exceeded.current, exceeded.adding);
    throw new QuotaExceededError(refusal.message, refusal.details);
  }
}

/**
 * Runs a write that asks for a quota check at its commit (in a transaction of its own, or as one
 * statement): a commit the check refused becomes 403 QUOTA_EXCEEDED, with nothing written. When the
 * team came near a limit while the write counted, the write runs once more, in a transaction asking
 * for an exact count (the check's design: migration exact_quotas); it is not a retry after an error
 * of the database, which the write never sees.
 */
export async function withinQuotas<T>(
  em: EntityManager,
  write: (em: EntityManager) => Promise<T>,
): Promise<T> {
  try {
    return await refusing(() => write(em));
  } catch (error) {
    if (!needsExactCount(error)) throw error;
    return refusing(() =>
      em.transactional(async (tx) => {
        await askForExactCount(tx);
        return write(tx);
      }),
    );
  }
}
