import type { TeamLimits } from '@webhook-scheduler/contract';
import { QuotaExceededError } from '../errors.js';
import { type PendingQuota, quotaExceededAtCommit } from '../shared/quota-check.js';
import { refusalOf } from './limits.rules.js';

/** The pending quotas of a team, as the check at commit takes them. */
export function pendingQuotaOf(teamId: string, limits: TeamLimits): PendingQuota {
  return { teamId, maxEvents: limits.max_pending_events, maxBytes: limits.max_pending_bytes };
}

/**
 * Runs a write that asked for a quota check at its commit (its own transaction, or a single
 * statement): a commit the check refused becomes 403 QUOTA_EXCEEDED, with nothing written.
 */
export async function withinQuotas<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const exceeded = quotaExceededAtCommit(error);
    if (!exceeded) throw error;
    const refusal = refusalOf(exceeded.quota, exceeded.limit, exceeded.current, exceeded.adding);
    throw new QuotaExceededError(refusal.message, refusal.details);
  }
}
