import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatInstant,
  formatOccurrence,
  formatRun,
  formatRelative,
  fromLocalInput,
  hasSeconds,
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
  it('shows the seconds only when asked', () => {
    expect(formatOccurrence('2030-07-01T07:00:00Z', 'Europe/Paris', false)).toBe('Mon, 1 Jul 2030, 09:00');
    expect(formatOccurrence('2030-07-01T07:00:30Z', 'Asia/Kolkata', true)).toBe('Mon, 1 Jul 2030, 12:30:30');
  });

  it('keeps the seconds of a whole minute in a schedule that has seconds', () => {
    expect(formatOccurrence('2030-07-01T07:00:00Z', 'Europe/Paris', true)).toBe('Mon, 1 Jul 2030, 09:00:00');
  });
});

describe('hasSeconds', () => {
  it('is true when any occurrence is off the minute, the whole minutes included', () => {
    expect(hasSeconds(['2030-07-01T07:00:00Z', '2030-07-01T07:00:30Z'])).toBe(true);
  });

  it('is false for a schedule on whole minutes, a six-field one included', () => {
    expect(hasSeconds(['2030-07-01T07:00:00Z', '2030-07-01T07:05:00.000Z'])).toBe(false);
    expect(hasSeconds([])).toBe(false);
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

describe('formatRun', () => {
  const now = new Date('2030-01-10T12:00:00Z');
  it('writes a run of this year on one short line, in the zone', () => {
    expect(formatRun('2030-01-14T08:00:00Z', 'Europe/Paris', false, now)).toBe('Mon 14 Jan, 09:00');
    expect(formatRun('2030-01-14T08:00:30Z', 'UTC', true, now)).toBe('Mon 14 Jan, 08:00:30');
  });
  it('adds the year only to a run of another year', () => {
    expect(formatRun('2031-01-14T08:00:00Z', 'UTC', false, now)).toBe('Tue 14 Jan 2031, 08:00');
  });
});
