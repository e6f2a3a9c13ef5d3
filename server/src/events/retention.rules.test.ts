import { describe, expect, it } from 'vitest';
import { pauseAfterBatch, retentionCutoff } from './retention.rules.js';

const DAY = 86_400_000;
const now = new Date('2026-11-23T12:00:00.000Z');

describe('retentionCutoff', () => {
  it('is the retention before now', () => {
    expect(retentionCutoff(now, 30 * DAY)).toEqual(new Date('2026-10-24T12:00:00.000Z'));
  });

  it('is null when the retention is 0 (keep forever)', () => {
    expect(retentionCutoff(now, 0)).toBeNull();
  });

  it.each([
    ['a millisecond above the retention', 30 * DAY + 1, true],
    ['exactly the retention', 30 * DAY, false],
    ['a millisecond below the retention', 30 * DAY - 1, false],
  ])('deletes a chain that ended %s ago: %s', (_name, ago, deleted) => {
    const endedAt = new Date(now.getTime() - ago);
    const cutoff = retentionCutoff(now, 30 * DAY);
    expect(cutoff !== null && endedAt < cutoff).toBe(deleted);
  });
});

describe('pauseAfterBatch', () => {
  const pace = { minPauseMs: 20, maxEventsPerSecond: 5_000 };

  it('waits the minimum after a quick, small batch', () => {
    expect(pauseAfterBatch(3, 10, pace)).toBe(20);
  });

  it('waits twice as long as a slow batch took', () => {
    expect(pauseAfterBatch(75.2, 500, pace)).toBe(151);
  });

  it('waits long enough to stay under the rate after a quick, large batch', () => {
    // 1,000 events at 5,000/s need 200 ms: 30 ms of work, 170 ms of pause.
    expect(pauseAfterBatch(30, 1000, pace)).toBe(170);
  });
});
