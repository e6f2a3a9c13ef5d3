import type { EntityManager } from '@mikro-orm/postgresql';
import {
  COOLED_CIRCUITS,
  NEXT_COOL_DOWN_END,
  NEXT_RETRY_AFTER_END,
  PROBING,
  reopenLostProbes,
} from '../destinations/store/destination-holds.js';
import { NEXT_PARKED_END, PROBES, queued, releaseExpired } from '../events/store/parking.js';
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

/**
 * In how many milliseconds, by the database's clock, the first hold still running ends: an open
 * circuit's cool-down, a destination's Retry-After or a row parked for one; null when none does.
 */
export async function nextReleaseInMs(em: EntityManager): Promise<number | null> {
  const [row] = await rawQuery<{ ms: string | null }>(
    em,
    `select extract(epoch from least(${NEXT_COOL_DOWN_END}, ${NEXT_RETRY_AFTER_END}, ${NEXT_PARKED_END})
                               - clock_timestamp()) * 1000 as ms`,
  );
  return row?.ms == null ? null : Number(row.ms);
}
