import type { EventStore } from './ports.js';

const BATCH = 200;
const BUDGET_MS = 1000;

/**
 * How far ahead the reconcile keeps crons materialized: one and a half horizons. A cron is topped up
 * once its occurrences run out within that, so crons on the minute (most of them) are topped up in
 * the middle of a minute, not in its first seconds beside their own occurrences' calls.
 */
const topUpHorizonMs = (cronHorizonMs: number): number => cronHorizonMs * 1.5;

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
