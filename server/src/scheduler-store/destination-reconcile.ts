import type { EntityManager } from '@mikro-orm/postgresql';
import { COOLED_CIRCUITS, PROBING, reopenLostProbes } from '../destinations/store/destination-holds.js';
import { PROBES, queued, releaseExpired } from '../events/store/parking.js';
import { rawQuery } from '../shared/raw-query.js';

/**
 * The reconcile's part for destinations: releases rows whose Retry-After ended; lets one call probe
 * each open circuit whose cool-down ended (its oldest held event, so a circuit with nothing waiting
 * stays open until an event of it is held); and re-opens a half-open circuit whose probe was lost.
 * Returns the rows released.
 */
export async function releaseDestinations(em: EntityManager): Promise<number> {
  const expired = await releaseExpired(em);
  const [probes] = await rawQuery<{ n: string }>(
    em,
    `with ${COOLED_CIRCUITS}, ${PROBES}, ${PROBING} select count(*) as n from released`,
  );
  await rawQuery(em, reopenLostProbes(queued));
  return expired + Number(probes?.n ?? 0);
}
