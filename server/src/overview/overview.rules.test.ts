import { describe, expect, it } from 'vitest';
import { WINDOWS, addCounts, binStarts, minuteStarts } from './overview.rules.js';

describe('binStarts', () => {
  it.each(Object.entries(WINDOWS) as [keyof typeof WINDOWS, { binSeconds: number; bins: number }][])(
    'cuts the %s window into aligned bins ending with the one holding now',
    (window, { binSeconds, bins }) => {
      const now = new Date('2030-01-14T09:47:31.250Z');
      const starts = binStarts(window, now);
      expect(starts).toHaveLength(bins);
      const last = starts.at(-1)?.getTime() ?? 0;
      expect(last).toBeLessThanOrEqual(now.getTime());
      expect(last + binSeconds * 1000).toBeGreaterThan(now.getTime());
      expect(starts.every((start) => start.getTime() % (binSeconds * 1000) === 0)).toBe(true);
      expect(
        starts.every(
          (start, i) => i === 0 || start.getTime() - (starts[i - 1]?.getTime() ?? 0) === binSeconds * 1000,
        ),
      ).toBe(true);
    },
  );

  it('starts the 24 h window on a quarter hour a day before', () => {
    const starts = binStarts('24h', new Date('2030-01-14T09:47:31Z'));
    expect(starts[0]?.toISOString()).toBe('2030-01-13T10:00:00.000Z');
    expect(starts.at(-1)?.toISOString()).toBe('2030-01-14T09:45:00.000Z');
  });
});

describe('minuteStarts', () => {
  it('lists the minutes of an hour from now, the partial ones at both ends included', () => {
    const from = new Date('2030-01-14T09:47:31Z');
    const minutes = minuteStarts(from, new Date(from.getTime() + 3_600_000));
    expect(minutes).toHaveLength(61);
    expect(minutes[0]?.toISOString()).toBe('2030-01-14T09:47:00.000Z');
    expect(minutes.at(-1)?.toISOString()).toBe('2030-01-14T10:47:00.000Z');
  });
});

describe('addCounts', () => {
  it('sums counts of the same minute', () => {
    const into = new Map([[0, 2]]);
    addCounts(
      into,
      new Map([
        [0, 3],
        [60_000, 1],
      ]),
    );
    expect(into).toEqual(
      new Map([
        [0, 5],
        [60_000, 1],
      ]),
    );
  });
});
