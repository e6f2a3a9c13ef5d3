import type { CircuitState } from '@webhook-scheduler/contract';
import { answerOf } from '@webhook-scheduler/scheduler';

/** What the outcomes of a team's calls to an origin have shown. */
export interface DestinationHealth {
  circuit: CircuitState;
  consecutiveFailures: number;
  /** While open: when one call may probe the origin. */
  openUntil: Date | null;
  /** How long the circuit stayed open last; the next failed probe doubles it. */
  cooldownMs: number;
  /** While half open: the one event allowed to probe the origin. */
  probeEventId: string | null;
  /** No call of the team starts to the origin before this (the receiver's Retry-After). */
  retryAfterUntil: Date | null;
}

/** One recorded call of the team to the origin. */
export interface RecordedCall {
  eventId: string;
  executedAt: Date;
  ok: boolean;
  responseStatus: number | null;
  retryAfter: Date | null;
}

export interface CircuitSettings {
  /** Consecutive failed calls that open the circuit (`CIRCUIT_FAILURES`). */
  failures: number;
  /** How long it stays open the first time; each failed probe doubles it… */
  firstCooldownMs: number;
  /** …up to this. */
  maxCooldownMs: number;
}

export const CIRCUIT_COOLDOWN = { firstCooldownMs: 30_000, maxCooldownMs: 3_600_000 } as const;

/** The health of an origin no call has failed at. */
export const HEALTHY: DestinationHealth = {
  circuit: 'closed',
  consecutiveFailures: 0,
  openUntil: null,
  cooldownMs: 0,
  probeEventId: null,
  retryAfterUntil: null,
};

/**
 * A call that says the origin cannot take calls: no response (connection error, timeout) or a 5xx.
 * A 4xx came from a live receiver, so it breaks a streak of failures as a success does.
 */
export function isDown(call: Pick<RecordedCall, 'ok' | 'responseStatus'>): boolean {
  return answerOf({ ok: call.ok, status: call.responseStatus }) === 'down';
}

/** What recording calls changed: the new health, and whether the circuit just opened or closed. */
export interface HealthChange {
  health: DestinationHealth;
  /** `opened` after the streak reached the threshold; `closed` when the probe succeeded. */
  transition: 'opened' | 'closed' | null;
}

/**
 * The health after `calls` (in the order they started): a streak of failures reaching the
 * threshold opens a closed circuit for the first cooldown; while half open, the probe's success
 * closes it and its failure opens it again for twice as long (capped). Calls that started before the
 * circuit opened only move the streak. Retry-After keeps the latest time asked for, until it passes.
 */
export function recordCalls(
  before: DestinationHealth,
  calls: RecordedCall[],
  now: Date,
  settings: CircuitSettings,
): HealthChange {
  let health: DestinationHealth = {
    ...before,
    retryAfterUntil: before.retryAfterUntil && before.retryAfterUntil > now ? before.retryAfterUntil : null,
  };
  let transition: HealthChange['transition'] = null;
  for (const call of calls) {
    const down = isDown(call);
    health.consecutiveFailures = down ? health.consecutiveFailures + 1 : 0;
    if (
      call.retryAfter &&
      call.retryAfter > now &&
      !(health.retryAfterUntil && health.retryAfterUntil >= call.retryAfter)
    )
      health.retryAfterUntil = call.retryAfter;
    if (health.circuit === 'half_open' && call.eventId === health.probeEventId) {
      if (down) health = opened(health, now, Math.min(health.cooldownMs * 2, settings.maxCooldownMs));
      else {
        health = { ...health, circuit: 'closed', openUntil: null, cooldownMs: 0, probeEventId: null };
        transition = 'closed';
      }
    } else if (health.circuit === 'closed' && health.consecutiveFailures >= settings.failures) {
      health = opened(health, now, settings.firstCooldownMs);
      transition = 'opened';
    }
  }
  return { health, transition };
}

function opened(health: DestinationHealth, now: Date, cooldownMs: number): DestinationHealth {
  return {
    ...health,
    circuit: 'open',
    cooldownMs,
    openUntil: new Date(now.getTime() + cooldownMs),
    probeEventId: null,
  };
}
