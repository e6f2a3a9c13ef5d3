import type { EntityManager } from '@mikro-orm/postgresql';
import { noCallsNoted } from '../destinations/store/destination-calls.js';
import { nextDueOfNothing } from '../events/store/claims.js';
import { prepareOnEveryConnection } from '../shared/raw-query.js';
import { claimsTakingNothing } from './claims.js';
import { noOutcomesRecorded } from './record-outcomes.js';

/**
 * Runs the statements of every delivery, with nothing to claim or record, on each connection of
 * the pool before the scheduler serves. Each connection prepares and plans them anew and reads the
 * catalog of what they touch on first use: after a start, the first burst's claims took 40–100 ms
 * against 1–3 ms once warm, and a punctual team's first events waited for them (bench/README.md,
 * bench/destinations, 2026-11-30).
 */
export function warmUpConnections(em: EntityManager): Promise<void> {
  return prepareOnEveryConnection(em, [
    ...claimsTakingNothing(),
    nextDueOfNothing,
    noOutcomesRecorded,
    noCallsNoted,
  ]);
}
