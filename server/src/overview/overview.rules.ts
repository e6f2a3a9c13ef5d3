import type { OverviewWindow } from '@webhook-scheduler/contract';

/** How each window is cut: bins short enough to see a burst, few enough to draw on a phone. */
export const WINDOWS: Readonly<Record<OverviewWindow, { binSeconds: number; bins: number }>> = {
  '1h': { binSeconds: 60, bins: 60 },
  '24h': { binSeconds: 15 * 60, bins: 96 },
  '7d': { binSeconds: 2 * 3600, bins: 84 },
};

/** How far ahead the Overview looks. */
export const UPCOMING_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The bin starts of `window` ending with the bin that holds `now`, aligned on the Unix epoch (as
 * the query's `date_bin` aligns them), oldest first.
 */
export function binStarts(window: OverviewWindow, now: Date): Date[] {
  const { binSeconds, bins } = WINDOWS[window];
  const binMs = binSeconds * 1000;
  const last = Math.floor(now.getTime() / binMs) * binMs;
  return Array.from({ length: bins }, (_, index) => new Date(last - (bins - 1 - index) * binMs));
}

/** The starts of the minutes from the one holding `from` to the one holding `to`, both included. */
export function minuteStarts(from: Date, to: Date): Date[] {
  const first = Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS;
  const minutes: Date[] = [];
  for (let at = first; at <= to.getTime(); at += MINUTE_MS) minutes.push(new Date(at));
  return minutes;
}

/** Adds per-minute counts into `into` (keys: minute starts, epoch ms). */
export function addCounts(into: Map<number, number>, counts: ReadonlyMap<number, number>): void {
  for (const [minute, n] of counts) into.set(minute, (into.get(minute) ?? 0) + n);
}
