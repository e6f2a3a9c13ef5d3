import type { EventStore } from './ports.js';

const BATCH = 200;
const BUDGET_MS = 1000;

/**
 * How far ahead the reconcile keeps crons materialized: 1.1 horizons. A cron is topped up once its
 * occurrences run out within that; the database's store spreads crons of one schedule over the 47 s
 * before it (crons/cron-occurrences.ts in the server). With the default horizon of a minute, crons on
 * the minute (most of them) are topped up between a minute's 7th and 54th second, never in its first
 * seconds beside their own occurrences' calls, and not all at once.
 */
const topUpHorizonMs = (cronHorizonMs: number): number => cronHorizonMs * 1.1;

/**
 * Tops up crons in batches until none is left or the time is up: one batch per tick fell behind
 * 20,000 crons, and a cron topped up late skips the occurrences it passed.
 */
export async function topUpCrons(
  store: Pick<EventStore, 'topUpCrons'>,
  cronHorizonMs: number,
): Promise<void> {
  const until = performance.now() + BUDGET_MS;
  while ((await store.topUpCrons(topUpHorizonMs(cronHorizonMs), BATCH)) > 0 && performance.now() < until);
}
