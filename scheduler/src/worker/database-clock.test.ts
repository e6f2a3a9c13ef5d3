import { describe, expect, it } from 'vitest';
import { DatabaseClock } from './database-clock.js';

describe('DatabaseClock', () => {
  it('places a time by the quickest reply of the last window, never earlier than any reply allows', () => {
    const clock = new DatabaseClock(5000);
    // The database's clock is 1,000,000 ms ahead of this process's; replies take 9 ms, then 1 ms.
    clock.observe(1_000_100, 109);
    expect(clock.when(1_000_200)).toBe(209);
    clock.observe(1_000_300, 301);
    expect(clock.when(1_000_400)).toBe(401);
    clock.observe(1_000_500, 520);
    expect(clock.when(1_000_600)).toBe(601);
  });

  it('starts a claim’s due rows at once and the others when the database’s clock reaches their time', () => {
    const clock = new DatabaseClock();
    const rows = [
      { scheduledAt: new Date(1_000_000), dueInMs: 0 },
      { scheduledAt: new Date(1_000_050), dueInMs: 40 },
    ];
    // The database read its clock at 1,000,010; the reply came here at 500.
    expect(clock.dueTimes(rows, 500).map(([, at]) => at)).toEqual([500, 540]);
  });

  it('forgets the bounds of windows past, so a clock set back holds for a window at most', () => {
    const clock = new DatabaseClock(5000);
    clock.observe(1_000_000, 0);
    // Set back by 50 ms: the old bound holds for the window after its own.
    clock.observe(1_005_000 - 50, 5000);
    expect(clock.when(1_005_100)).toBe(5100);
    clock.observe(1_010_000 - 50, 10_000);
    expect(clock.when(1_010_100)).toBe(10_150);
  });
});
