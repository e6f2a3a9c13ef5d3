import { describe, expect, it } from 'vitest';
import { PacedRate, RateWindow } from './rate-window.js';

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
    const window = new RateWindow(10, 1000);
    const starts: number[] = [];
    for (let now = 0; now < 10_000; now += 7) {
      while (window.room(now) > 0) {
        window.take(now);
        starts.push(now);
      }
    }
    for (const start of starts) {
      expect(starts.filter((time) => time >= start && time < start + 1000).length).toBeLessThanOrEqual(10);
    }
    expect(starts.length).toBeGreaterThanOrEqual(95);
  });
});

describe('PacedRate', () => {
  it('spreads a window’s starts over it: a fifth in any fifth, the whole in any window', () => {
    const rate = new PacedRate(100, 1000);
    const starts: number[] = [];
    for (let now = 0; now < 10_000; now += 3) {
      while (rate.room(now) > 0) {
        rate.take(now);
        starts.push(now);
      }
    }
    const most = (ms: number) =>
      Math.max(...starts.map((start) => starts.filter((time) => time >= start && time < start + ms).length));
    expect(most(200)).toBeLessThanOrEqual(20);
    expect(most(1000)).toBeLessThanOrEqual(100);
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
