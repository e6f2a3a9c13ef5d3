import { describe, expect, it } from 'vitest';
import { pauseAfterBatch } from './batch-pace.rules.js';

describe('pauseAfterBatch', () => {
  const pace = { minPauseMs: 20, maxRowsPerSecond: 5_000 };

  it('waits the minimum after a quick, small batch', () => {
    expect(pauseAfterBatch(3, 10, pace)).toBe(20);
  });

  it('waits twice as long as a slow batch took', () => {
    expect(pauseAfterBatch(75.2, 500, pace)).toBe(151);
  });

  it('waits long enough to stay under the rate after a quick, large batch', () => {
    // 1,000 rows at 5,000/s need 200 ms: 30 ms of work, 170 ms of pause.
    expect(pauseAfterBatch(30, 1000, pace)).toBe(170);
  });
});
