import { retryAfter } from './retry-after.rules.js';
import { nextRetryDelay } from './retry-policy.js';
import type { AttemptRecord, ClaimedAttempt, RetryAttempt, WebhookOutcome } from './ports.js';
import { requestOf } from './event-request.js';

/** How many times one attempt may be claimed before an ever-expiring lease counts as a failure. */
export const MAX_CLAIMS = 3;

/**
 * An attempt that fell due longer than the tolerance before schedulers ran again is not sent
 * (docs/reference/behaviour.md#missed-events). Only the time no scheduler ran counts: however long
 * the backlog then takes to drain, an attempt's outcome does not depend on it. One that fell due
 * while schedulers ran was waiting for its team's or destination's share: it is sent late, never
 * failed for that (docs/reference/behaviour.md#fairness-shares).
 */
export function isMissed(scheduledAt: Date, toleranceMs: number, servedSince: Date): boolean {
  return servedSince.getTime() - scheduledAt.getTime() > toleranceMs;
}

/** A failure decided without a call (no response, no duration). */
function failureWithoutCall(error: string, now: Date, permanent: boolean): WebhookOutcome {
  return {
    ok: false,
    status: null,
    headers: null,
    body: null,
    durationMs: 0,
    error,
    permanent,
    startedAt: now,
  };
}

/** The outcome given to an event missed during downtime. */
export function missedOutcome(attempt: ClaimedAttempt, now: Date, toleranceMs: number): WebhookOutcome {
  const lateMinutes = Math.round((now.getTime() - attempt.scheduledAt.getTime()) / 60_000);
  const tolerance = Math.round(toleranceMs / 1000);
  const error = `missed: it was due ${lateMinutes} min ago, longer than MISSED_EVENT_TOLERANCE (${tolerance} s), so it was not sent`;
  return failureWithoutCall(error, now, true);
}

/** The outcome of an attempt whose worker stopped mid-call too many times. */
export function interruptedOutcome(attempt: ClaimedAttempt, now: Date): WebhookOutcome {
  const error = `delivery was interrupted ${attempt.claimCount} times (the worker stopped during the call)`;
  return failureWithoutCall(error, now, false);
}

/**
 * What recording an outcome means (docs/reference/behaviour.md#status-transitions): the attempt ends `success` or `failed` — except an
 * original with retries still to come, which stays `processing`; a retry is scheduled per the retry
 * policy unless the failure is permanent; a retry attempt that ends the delivery settles its original.
 */
export function planRecord(
  attempt: ClaimedAttempt,
  outcome: WebhookOutcome,
  newId: () => string,
  { executed = true }: { executed?: boolean } = {},
): AttemptRecord {
  const retryNumber = attempt.attempt + 1;
  const answeredAt = new Date(outcome.startedAt.getTime() + outcome.durationMs);
  const receiverAsks = retryAfter(outcome.status, outcome.headers, answeredAt);
  const delay =
    outcome.ok || outcome.permanent || !attempt.retryConfig
      ? null
      : nextRetryDelay(attempt.retryConfig, retryNumber);
  const retry: RetryAttempt | null =
    delay === null
      ? null
      : {
          id: newId(),
          attempt: retryNumber,
          // Never before the time the receiver asked for (Retry-After).
          scheduledAt: new Date(Math.max(answeredAt.getTime() + delay, receiverAsks?.getTime() ?? 0)),
          teamId: attempt.teamId,
          cronId: attempt.cronId,
          originalId: attempt.originalId,
          ...requestOf(attempt),
          traceContext: attempt.traceContext,
        };
  const finalStatus = outcome.ok ? 'success' : 'failed';
  const isOriginal = attempt.attempt === 0;
  return {
    id: attempt.id,
    leaseToken: attempt.leaseToken,
    status: isOriginal && retry ? 'processing' : finalStatus,
    executedAt: executed ? outcome.startedAt : null,
    responseStatus: outcome.status,
    responseHeaders: outcome.headers,
    responseBody: outcome.body,
    responseDuration: outcome.durationMs,
    responseError: outcome.error,
    originalStatus: isOriginal || retry ? null : finalStatus,
    originalId: attempt.originalId,
    retry,
    call: executed ? { teamId: attempt.teamId, origin: attempt.origin, retryAfter: receiverAsks } : null,
  };
}
