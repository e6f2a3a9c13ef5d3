/** The least spread, the one every cron had before its schedule's gap was counted (46 ms × 1024). */
export const LEAST_TOP_UP_SPREAD_MS = 47_104;
/** A cron's top-up never falls in the first seconds after its previous occurrence, beside its calls. */
const CLEAR_OF_OCCURRENCE_MS = 7_000;

/**
 * Over how long before it runs out a cron may be topped up (each cron at its own fraction of it,
 * fixed by its id): the gap between its last two occurrences, less the top-up's reach and a few
 * seconds, or 47 s at least. Crons of one schedule are then topped up across the whole gap rather
 * than in the same 47 s: 5,000 five-minute crons rewrote their rows within 47 s of every fifth
 * minute, more dead rows than a vacuum every 10 s keeps under 10 % (bench/README.md, bench/scale).
 * `gapMs` is null when the previous occurrence is unknown (a cron never materialized, or run out).
 */
export function topUpSpreadMs(gapMs: number | null, reachMs: number): number {
  if (gapMs === null) return LEAST_TOP_UP_SPREAD_MS;
  return Math.max(LEAST_TOP_UP_SPREAD_MS, gapMs - reachMs - CLEAR_OF_OCCURRENCE_MS);
}
