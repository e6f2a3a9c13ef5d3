import { describe, expect, it } from 'vitest';
import { PacedRate, RateWindow } from './rate-window.js';

/** Every start a limit allows over 10 s, asked every `stepMs`. */
function greedyStarts(limit: Pick<RateWindow, 'room' | 'take'>, stepMs: number): number[] {
  const starts: number[] = [];
  for (let now = 0; now < 10_000; now += stepMs) {
    while (limit.room(now) > 0) {
      limit.take(now);
      starts.push(now);
    }
  }
  return starts;
}

/** The most starts in any window of `ms`. */
function mostWithin(starts: number[], ms: number): number {
  return Math.max(
    ...starts.map((start) => starts.filter((time) => time >= start && time < start + ms).length),
  );
}

describe('RateWindow', () => {
  it('lets at most `requests` start in any window, and room comes back as the oldest leaves it', () => {
    const window = new RateWindow(3, 1000);
    expect(window.room(0)).toBe(3);
    window.take(0);
    window.take(100);
    window.take(900);
    expect(window.room(950)).toBe(0);
    expect(window.nextRoomAt(950)).toBe(1000);
    expect(window.room(1000)).toBe(1);
    window.take(1000);
    expect(window.nextRoomAt(1050)).toBe(1100);
    expect(window.room(1899)).toBe(1);
    expect(window.room(1900)).toBe(2);
    expect(window.room(2000)).toBe(3);
    expect(window.nextRoomAt(2000)).toBeUndefined();
  });

  it('never lets more than `requests` through in any window, however starts are spread', () => {
    const starts = greedyStarts(new RateWindow(10, 1000), 7);
    expect(mostWithin(starts, 1000)).toBeLessThanOrEqual(10);
    expect(starts.length).toBeGreaterThanOrEqual(95);
  });
});

/**
 * Starts as the worker makes them: when the limit is full it waits for the room, then a claim
 * takes `claimMs(i)` before the calls start. Returns the start times over `ms`.
 */
function claimedStarts(limit: PacedRate, ms: number, claimMs: (i: number) => number): number[] {
  const starts: number[] = [];
  let now = 0;
  for (let claim = 0; now < ms; claim += 1) {
    while (limit.room(now) > 0) {
      limit.take(now);
      starts.push(now);
    }
    now = (limit.nextRoomAt(now) ?? now) + 1 + claimMs(claim);
  }
  return starts;
}

describe('PacedRate', () => {
  it('keeps its pace however long each claim takes, and never more than the limit in any window', () => {
    for (const claimMs of [() => 12, (i: number) => (i * 7919) % 25]) {
      const starts = claimedStarts(new PacedRate(100, 1000), 50_000, claimMs);
      expect(mostWithin(starts, 1000)).toBeLessThanOrEqual(100);
      // Counting each fifth from its late starts gave 20 per 213 ms, 93.9/s, with claims of 12 ms.
      expect(starts.length / 50).toBeGreaterThanOrEqual(97);
    }
  });

  it('spreads a window’s starts over it: a fifth in any fifth (less its slack), the whole in any window', () => {
    const starts = greedyStarts(new PacedRate(100, 1000), 3);
    expect(mostWithin(starts, 150)).toBeLessThanOrEqual(20);
    expect(mostWithin(starts, 1000)).toBeLessThanOrEqual(100);
    expect(starts.length).toBeGreaterThanOrEqual(950);
  });

  it('says when it has room again', () => {
    const rate = new PacedRate(20, 1000);
    for (let i = 0; i < 3; i += 1) rate.take(0);
    expect(rate.room(0)).toBe(1);
    rate.take(0);
    expect(rate.nextRoomAt(50)).toBe(200);
    expect(rate.room(200)).toBe(4);
  });
});
