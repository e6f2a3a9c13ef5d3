import type { EntityManager } from '@mikro-orm/postgresql';
import { noCallsNoted } from '../destinations/store/destination-calls.js';
import { nextDueOfNothing } from '../events/store/claims.js';
import { prepareOnEveryConnection } from '../shared/raw-query.js';
import { claimsTakingNothing } from './claims.js';
import { noOutcomesRecorded } from './record-outcomes.js';

/**
 * Runs the statements of every delivery, with nothing to claim or record, on each connection of
 * the pool before the scheduler serves. Each connection prepares and plans them anew and reads the
 * catalog of what they touch on first use: a connection's first claim took 40–59 ms against 6–9 ms
 * for its second, and after a start a punctual team's first events waited for such claims
 * (bench/README.md, bench/destinations, 2026-11-30).
 */
export function warmUpConnections(em: EntityManager): Promise<void> {
  return prepareOnEveryConnection(em, [
    ...claimsTakingNothing(),
    nextDueOfNothing,
    noOutcomesRecorded,
    noCallsNoted,
  ]);
}
