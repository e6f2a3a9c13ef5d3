import { describe, expect, it } from 'vitest';
import { countPerMinute, minuteOccurrences, nextOccurrences, occurrencesPerMinute } from './occurrences.js';

/** The per-minute counts the slow way: every occurrence, one by one. */
function bruteForce(expression: string, timezone: string | null, after: Date, until: Date) {
  const counts = new Map<number, number>();
  for (const at of nextOccurrences(expression, timezone, after, { until, min: 0, max: 100_000 })) {
    const minute = Math.floor(at.getTime() / 60_000) * 60_000;
    counts.set(minute, (counts.get(minute) ?? 0) + 1);
  }
  return counts;
}

const hour = (iso: string): [Date, Date] => {
  const after = new Date(iso);
  return [after, new Date(after.getTime() + 3_600_000)];
};

describe('occurrencesPerMinute', () => {
  it.each([
    ['* * * * * *', null, '2030-01-14T09:00:17.250Z'],
    ['*/7 * * * * *', 'Europe/Paris', '2030-01-14T09:00:17.250Z'],
    ['5,40 */3 * * * *', 'Asia/Kathmandu', '2030-01-14T09:29:40.000Z'],
    ['*/5 * * * *', 'America/New_York', '2030-01-14T09:02:00.000Z'],
    ['0 9 * * MON-FRI', 'Europe/Paris', '2030-01-14T07:30:00.000Z'],
    ['@hourly', null, '2030-01-14T09:00:00.000Z'],
    ['30 * * * * *', 'UTC', '2030-01-14T09:00:30.000Z'],
    // Paris springs forward at 02:00 local (01:00 UTC) on 31 March 2030: no 02:xx minutes that day.
    ['*/10 * * * * *', 'Europe/Paris', '2030-03-31T00:30:05.000Z'],
    // ... and falls back at 03:00 local (01:00 UTC) on 27 October 2030: 02:xx is fired once.
    ['*/10 * * * * *', 'Europe/Paris', '2030-10-27T00:30:05.000Z'],
    ['15 */2 2 * * *', 'Europe/Paris', '2030-10-27T00:00:00.000Z'],
    ['0 0 18 LW * *', 'America/New_York', '2030-01-31T22:30:00.000Z'],
  ])('counts %s in %s the same as every occurrence one by one, from %s', (expression, zone, at) => {
    const [after, until] = hour(at);
    const counts = occurrencesPerMinute(expression, zone, after, until);
    expect(counts).toEqual(bruteForce(expression, zone, after, until));
  });

  it('counts an hour of a per-second cron as 3,600 runs, none at the start and one at the end', () => {
    const [after, until] = hour('2030-01-14T09:00:00.000Z');
    const counts = occurrencesPerMinute('* * * * * *', null, after, until);
    expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBe(3600);
    expect(counts.get(after.getTime())).toBe(59);
    expect(counts.get(until.getTime())).toBe(1);
  });

  it('is empty for an empty range, and refuses an invalid expression', () => {
    const [after] = hour('2030-01-14T09:00:00.000Z');
    expect(occurrencesPerMinute('* * * * *', null, after, after).size).toBe(0);
    expect(() => occurrencesPerMinute('61 * * * *', null, after, new Date())).toThrow(RangeError);
  });

  it('counts from a later start with the minutes walked once from an earlier one', () => {
    const [now, until] = hour('2030-01-14T09:00:12.000Z');
    const walked = minuteOccurrences('*/4 * * * * *', 'Europe/Paris', now, until);
    for (const later of ['2030-01-14T09:00:30.500Z', '2030-01-14T09:01:03.000Z']) {
      const after = new Date(later);
      expect(countPerMinute(walked, after, until)).toEqual(
        bruteForce('*/4 * * * * *', 'Europe/Paris', after, until),
      );
    }
  });
});
