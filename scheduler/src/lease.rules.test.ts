import { describe, expect, it } from 'vitest';
import { leaseWindow } from './lease.rules.js';

describe('leaseWindow', () => {
  it.each([
    // leaseMs, timeoutMs, sendBy, recordBy (claim sent at 1000)
    { leaseMs: 60_000, timeoutMs: 30_000, sendBy: 1000 + 25_000, recordBy: 61_000 },
    { leaseMs: 6_000, timeoutMs: 5_000, sendBy: 1000 + 500, recordBy: 7_000 },
    { leaseMs: 3_000, timeoutMs: 2_000, sendBy: 1000 + 500, recordBy: 4_000 },
    { leaseMs: 5_000, timeoutMs: 5_000, sendBy: 1000, recordBy: 6_000 },
  ])(
    'lets a call start until $sendBy and record until $recordBy for a $leaseMs ms lease and $timeoutMs ms calls',
    ({ leaseMs, timeoutMs, sendBy, recordBy }) => {
      expect(leaseWindow(1000, 3, { leaseMs, timeoutMs })).toEqual({ epoch: 3, sendBy, recordBy });
    },
  );

  it('ends every call started by sendBy before the lease ends, keeping a margin to record it', () => {
    for (const [leaseMs, timeoutMs] of [
      [35_000, 5_000],
      [60_000, 30_000],
      [2_000, 1_000],
      [30_100, 30_000],
    ] as const) {
      const window = leaseWindow(0, 1, { leaseMs, timeoutMs });
      expect(window.sendBy + timeoutMs).toBeLessThan(window.recordBy);
      expect(window.sendBy).toBeGreaterThanOrEqual(0);
    }
  });
});
