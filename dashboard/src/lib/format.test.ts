import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatInstant,
  formatOccurrence,
  formatRelative,
  fromLocalInput,
  toLocalInput,
} from './format.js';

describe('formatRelative', () => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  it.each([
    ['2030-01-01T12:00:00.500Z', 'now'],
    ['2030-01-01T12:00:30Z', 'in 30 seconds'],
    ['2030-01-01T11:55:00Z', '5 minutes ago'],
    ['2030-01-01T15:10:00Z', 'in 3 hours'],
    ['2029-12-30T12:00:00Z', '2 days ago'],
  ])('says %s as %j', (iso, expected) => {
    expect(formatRelative(iso, now)).toBe(expected);
  });
});

describe('formatInstant', () => {
  it('shows the instant in the time zone it is given', () => {
    expect(formatInstant('2030-07-01T07:00:00Z', 'Europe/Paris')).toBe('Mon, 1 Jul 2030, 09:00:00');
    expect(formatInstant('2030-07-01T07:00:00Z', 'UTC')).toBe('Mon, 1 Jul 2030, 07:00:00');
  });
});

describe('formatOccurrence', () => {
  it('leaves out the seconds of a whole minute and shows them otherwise', () => {
    expect(formatOccurrence('2030-07-01T07:00:00Z', 'Europe/Paris')).toBe('Mon, 1 Jul 2030, 09:00');
    expect(formatOccurrence('2030-07-01T07:00:30Z', 'Asia/Kolkata')).toBe('Mon, 1 Jul 2030, 12:30:30');
  });
});

describe('formatDuration', () => {
  it.each([
    [12, '12 ms'],
    [999, '999 ms'],
    [2430, '2.4 s'],
  ])('says %i ms as %j', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe('local datetime inputs', () => {
  it('round-trip an instant through the input value', () => {
    const date = new Date('2030-03-04T05:06:07Z');
    expect(fromLocalInput(toLocalInput(date))).toBe(date.toISOString());
  });

  it.each(['', '2030-03-04', 'tomorrow', '2030-13-45T99:00'])('refuse %j', (value) => {
    expect(fromLocalInput(value)).toBeUndefined();
  });
});
