// The `slow` scenario of bench/scale: DELIVERY_CONCURRENCY 2,000 and 200 origins that answer after
// 1 s, called by several teams at SLOW_RATE a second for SLOW_S seconds, while another team's
// punctual events fall due (issue 25: ≥ 1,600 deliveries/s sustained, RSS ≤ 1 GiB, punctual p99 ≤ 50 ms).
import { percentile } from '../processes.ts';
import { eventInput } from './workload.ts';

/** Below Linux's ephemeral ports (32768 and up), which outgoing connections may hold. */
export const SLOW_PORT_BASE = 29_000;
export const SLOW_ORIGINS = 200;
export const SLOW_DELAY_MS = 1000;
const SLOW_RATE = Number(process.env.SCALE_SLOW_RATE ?? 2000);
const SLOW_S = Number(process.env.SCALE_SLOW_S ?? 60);
/** Teams 1–8 call the slow origins: eight shares of a quarter of DELIVERY_CONCURRENCY each cover it. */
const SLOW_TEAMS = 8;
/** The punctual events' team: none of the slow ones. */
export const PUNCTUAL_TEAM = 0;

/**
 * The slow load's start: the first minute mark from `earliest`, so that its first second also holds
 * the punctual team's burst of cron occurrences (the case that once left them waiting 61 s).
 */
export function minuteMark(earliest: number): number {
  return Math.ceil(earliest / 60_000) * 60_000;
}

/** The slow events, due evenly from `t0` over SLOW_S seconds, each team's to every origin. */
export function slowEvents(t0: number) {
  return Array.from({ length: SLOW_RATE * SLOW_S }, (_, i) => ({
    team: 1 + (i % SLOW_TEAMS),
    input: eventInput(
      `http://127.0.0.1:${SLOW_PORT_BASE + (Math.floor(i / SLOW_TEAMS) % SLOW_ORIGINS)}/slow/${i}`,
      new Date(t0 + (i * 1000) / SLOW_RATE),
    ),
  }));
}

/**
 * Arrivals at the slow receivers per whole second, over the seconds the load was due (the first
 * SLOW_DELAY_MS skipped: calls take that long to start arriving in full).
 */
export function slowThroughput(perSecond: Record<string, number>, t0: number) {
  const first = Math.ceil((t0 + SLOW_DELAY_MS) / 1000);
  const seconds = Array.from({ length: SLOW_S - 1 }, (_, k) => perSecond[String(first + k)] ?? 0);
  const sorted = [...seconds].sort((a, b) => a - b);
  return {
    offeredPerSecond: SLOW_RATE,
    seconds: seconds.length,
    median: percentile(sorted, 50),
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
    mean: Math.round(seconds.reduce((sum, n) => sum + n, 0) / Math.max(1, seconds.length)),
    perSecond: seconds,
  };
}
