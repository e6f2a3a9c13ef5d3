// Reading the arrivals receiver (arrivals-receiver.ts): what came, when, and how late.
import os from 'node:os';
import { type Running, spread, startListener, waitFor } from '../processes.ts';

export interface Arrivals {
  requests: number;
  unique: number;
  duplicates: number;
  /** Arrival times, epoch ms, in the order they came. */
  at: number[];
  /** Each arrival's scheduled time from its payload. */
  due: (number | null)[];
}

/** The arrivals receiver on `port` (0: any free port); `delays` such as `{ '/slow': 1000 }`. */
export function startArrivals(
  port = 0,
  delays: Record<string, number> = {},
): Promise<Running & { url: string }> {
  const rules = Object.entries(delays).map(([name, ms]) => `${name}=${ms}`);
  return startListener('destinations/arrivals-receiver.ts', [String(port), ...rules]);
}

export async function readArrivals(receiverUrl: string, path: string): Promise<Arrivals> {
  const response = await fetch(`${receiverUrl}/arrivals?path=${encodeURIComponent(path)}`);
  return (await response.json()) as Arrivals;
}

/**
 * Waits until `count` distinct events arrived at `path`. Asking the receiver, not the database:
 * counting rows while the service works would load the PostgreSQL being measured.
 */
export async function arrived(
  receiverUrl: string,
  path: string,
  count: number,
  timeoutMs: number,
): Promise<void> {
  await waitFor(
    async () => {
      const response = await fetch(`${receiverUrl}/count?path=${encodeURIComponent(path)}`);
      return ((await response.json()) as { unique: number }).unique >= count ? true : undefined;
    },
    `${count} arrivals at ${path}`,
    timeoutMs,
  );
}

/** Most arrivals in any window of `windowMs` (sliding: every arrival opens a window). */
export function maxInWindow(at: number[], windowMs: number): number {
  const sorted = [...at].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while ((sorted[first] ?? 0) <= (sorted[last] ?? 0) - windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Arrival minus scheduled time (ms) of every arrival that carried its scheduled time. */
export function lateness(arrivals: Arrivals) {
  const late = arrivals.at.flatMap((at, i) => {
    const due = arrivals.due[i];
    return due === null || due === undefined ? [] : [at - due];
  });
  return spread(late);
}

/** Lateness by the second of its due time after `from`: where in a spread the late ones were. */
export function latenessBySecond(arrivals: Arrivals, from: number) {
  const bySecond = new Map<number, number[]>();
  arrivals.at.forEach((at, i) => {
    const due = arrivals.due[i];
    if (due === null || due === undefined) return;
    const second = Math.floor((due - from) / 1000);
    const late = bySecond.get(second) ?? [];
    late.push(at - due);
    bySecond.set(second, late);
  });
  return [...bySecond].sort(([x], [y]) => x - y).map(([second, late]) => ({ second, ...spread(late) }));
}

/** The machine's load averages (1, 5, 15 min), to read a figure with. */
export function load(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}
