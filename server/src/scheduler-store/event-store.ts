import type { MikroORM } from '@mikro-orm/postgresql';
import type { AttemptRecord, EventStore, Timers } from '@webhook-scheduler/scheduler';
import { topUpCrons } from '../crons/cron-occurrences.js';
import { CIRCUIT_COOLDOWN } from '../destinations/circuit.rules.js';
import { sendCircuitAlerts } from '../destinations/circuit-alerts.js';
import { type DestinationCall, recordDestinationCalls } from '../destinations/store/destination-calls.js';
import { destinationLimits } from '../destinations/store/destination-limits.js';
import { nextDueAt, pendingSlots } from '../events/store/claims.js';
import { expiredLeases, releaseAttempts } from '../events/store/leases.js';
import { releaseHeld } from '../events/store/parking.js';
import { dueBacklog } from '../events/store/queue-load.js';
import { claimBacklog, claimDue } from './claims.js';
import { nextReleaseInMs, releaseDestinations } from './destination-reconcile.js';
import { recordOutcomes } from './record-outcomes.js';
import { warmUpConnections } from './warm-up.js';

/** How destinations' circuits break (`CIRCUIT_FAILURES`). */
export interface DestinationPolicy {
  circuitFailures: number;
  /** How long a circuit first stays open (30 s; tests shorten it). */
  circuitCooldownMs?: number | undefined;
}

/** The calls among `records` that were recorded, for their destinations' health. */
function callsOf(records: AttemptRecord[], recorded: string[]): DestinationCall[] {
  const ids = new Set(recorded);
  return records.flatMap((record) =>
    record.call && record.executedAt && ids.has(record.id)
      ? [
          {
            ...record.call,
            eventId: record.id,
            executedAt: record.executedAt,
            ok: record.responseError === null,
            responseStatus: record.responseStatus,
          },
        ]
      : [],
  );
}

/** The scheduler's storage port over the service's PostgreSQL. */
export function createEventStore(orm: MikroORM, timers: Timers, policy: DestinationPolicy): EventStore {
  const em = () => orm.em.fork();
  const circuit = {
    ...CIRCUIT_COOLDOWN,
    failures: policy.circuitFailures,
    firstCooldownMs: policy.circuitCooldownMs ?? CIRCUIT_COOLDOWN.firstCooldownMs,
  };
  return {
    claimDue: (options) => claimDue(em(), options),
    claimBacklog: (options) => claimBacklog(em(), options),
    nextDueAt: (from, before, aheadMs) => nextDueAt(em(), from, before, aheadMs),
    pendingSlots: (from, before) => pendingSlots(em(), from, before),
    record: async (records) => {
      const recorded = await recordOutcomes(em(), timers, records);
      const now = new Date();
      const changes = await recordDestinationCalls(em(), callsOf(records, recorded), circuit, now);
      for (const change of changes) {
        if (change.transition === 'closed') await releaseHeld(em(), change.teamId, change.origin);
      }
      if (changes.length > 0) await sendCircuitAlerts(em(), timers, changes, now);
      return recorded;
    },
    release: (attempts) => releaseAttempts(em(), attempts),
    expiredLeases: (limit, deadOwners) => expiredLeases(em(), limit, deadOwners),
    topUpCrons: (horizonMs, limit) => topUpCrons(orm, timers, { horizonMs, limit }),
    releaseDestinations: () => releaseDestinations(em()),
    nextReleaseInMs: () => nextReleaseInMs(em()),
    destinationLimits: () => destinationLimits(em()),
    dueBacklog: () => dueBacklog(em()),
    warmUp: () => warmUpConnections(em()),
  };
}
