import { describe, expect, it } from 'vitest';
import { retentionCutoff } from './retention.rules.js';

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
