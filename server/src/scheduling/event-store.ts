import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventStore, Timers } from '@webhook-scheduler/scheduler';
import { topUpCrons } from '../crons/cron-occurrences.js';
import { claimBacklog, claimDue, nextDueAt, pendingSlots } from '../events/store/claims.js';
import { dueBacklog, expiredLeases, recordOutcomes, releaseAttempts } from '../events/store/delivery.js';

/** The scheduler's storage port over the service's PostgreSQL. */
export function createEventStore(orm: MikroORM, timers: Timers): EventStore {
  const em = () => orm.em.fork();
  return {
    claimDue: (options) => claimDue(em(), options),
    claimBacklog: (options) => claimBacklog(em(), options),
    nextDueAt: (from, before) => nextDueAt(em(), from, before),
    pendingSlots: (from, before) => pendingSlots(em(), from, before),
    record: (records) => recordOutcomes(em(), timers, records),
    release: (attempts) => releaseAttempts(em(), attempts),
    expiredLeases: (limit, deadOwners) => expiredLeases(em(), limit, deadOwners),
    topUpCrons: (horizonMs, limit) => topUpCrons(orm, timers, { horizonMs, limit }),
    dueBacklog: () => dueBacklog(em()),
  };
}
