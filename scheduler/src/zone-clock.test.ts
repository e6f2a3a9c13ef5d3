import { describe, expect, test } from 'vitest';
import { ZoneClock } from './zone-clock.js';

// A wall time is written as the UTC instant with the same digits.
const wall = (local: string): number => Date.parse(`${local}Z`);
const instant = (iso: string): number => Date.parse(iso);

describe('ZoneClock.resolve', () => {
  test.each([
    { zone: null, local: '2026-03-29T02:30:00', expected: { instant: instant('2026-03-29T02:30:00Z') } },
    {
      zone: 'Europe/Paris',
      local: '2026-07-01T12:00:00',
      expected: { instant: instant('2026-07-01T10:00:00Z') },
    },
    {
      zone: 'Asia/Kolkata',
      local: '2026-07-01T12:00:00',
      expected: { instant: instant('2026-07-01T06:30:00Z') },
    },
    {
      zone: 'Europe/Paris',
      local: '2026-03-29T01:59:59',
      expected: { instant: instant('2026-03-29T00:59:59Z') },
    },
    { zone: 'Europe/Paris', local: '2026-03-29T02:30:00', expected: { gapEnd: wall('2026-03-29T03:00:00') } },
    {
      zone: 'Europe/Paris',
      local: '2026-03-29T03:00:00',
      expected: { instant: instant('2026-03-29T01:00:00Z') },
    },
    {
      zone: 'Europe/Paris',
      local: '2026-10-25T02:30:00',
      expected: { instant: instant('2026-10-25T00:30:00Z') },
    },
    {
      zone: 'Europe/Paris',
      local: '2026-10-25T03:00:00',
      expected: { instant: instant('2026-10-25T02:00:00Z') },
    },
    {
      zone: 'America/New_York',
      local: '2026-03-08T02:00:00',
      expected: { gapEnd: wall('2026-03-08T03:00:00') },
    },
    {
      zone: 'America/New_York',
      local: '2026-11-01T01:59:00',
      expected: { instant: instant('2026-11-01T05:59:00Z') },
    },
    {
      zone: 'Australia/Lord_Howe',
      local: '2026-10-04T02:10:00',
      expected: { gapEnd: wall('2026-10-04T02:30:00') },
    },
    {
      zone: 'Australia/Lord_Howe',
      local: '2026-04-05T01:45:00',
      expected: { instant: instant('2026-04-04T14:45:00Z') },
    },
    {
      zone: 'Pacific/Chatham',
      local: '2026-09-27T03:00:00',
      expected: { gapEnd: wall('2026-09-27T03:45:00') },
    },
    {
      zone: 'Pacific/Chatham',
      local: '2026-04-05T03:00:00',
      expected: { instant: instant('2026-04-04T13:15:00Z') },
    },
  ])('maps $local in $zone to $expected', ({ zone, local, expected }) => {
    expect(new ZoneClock(zone).resolve(wall(local))).toEqual(expected);
  });

  test('resolves a run of wall times across a gap and a fold in one clock', () => {
    const clock = new ZoneClock('Europe/Paris');
    const walls = [
      '2026-03-29T01:30:00',
      '2026-03-29T02:30:00',
      '2026-10-25T02:30:00',
      '2026-10-25T03:30:00',
    ];
    expect(walls.map((local) => clock.resolve(wall(local)))).toEqual([
      { instant: instant('2026-03-29T00:30:00Z') },
      { gapEnd: wall('2026-03-29T03:00:00') },
      { instant: instant('2026-10-25T00:30:00Z') },
      { instant: instant('2026-10-25T02:30:00Z') },
    ]);
  });
});

describe('ZoneClock.cursorAfter', () => {
  test.each([
    { why: 'in UTC', zone: null, at: '2026-11-01T06:10:00Z', cursor: wall('2026-11-01T06:10:00') },
    {
      why: 'outside any transition',
      zone: 'America/New_York',
      at: '2026-07-01T12:00:00Z',
      cursor: wall('2026-07-01T08:00:00'),
    },
    {
      why: 'in the first pass of a fold',
      zone: 'America/New_York',
      at: '2026-11-01T05:50:00Z',
      cursor: wall('2026-11-01T01:50:00'),
    },
    {
      why: 'in the second pass of a fold (the fold end)',
      zone: 'America/New_York',
      at: '2026-11-01T06:10:00Z',
      cursor: wall('2026-11-01T02:00:00') - 1,
    },
    {
      why: 'in the second pass of a 30-minute fold',
      zone: 'Australia/Lord_Howe',
      at: '2026-04-04T15:10:00Z',
      cursor: wall('2026-04-05T02:00:00') - 1,
    },
  ])('gives the wall cursor $why', ({ zone, at, cursor }) => {
    expect(new ZoneClock(zone).cursorAfter(instant(at))).toBe(cursor);
  });
});

test('refuses an unknown time zone with a RangeError', () => {
  expect(() => new ZoneClock('Nowhere/Atlantis')).toThrow(
    new RangeError('unknown time zone: Nowhere/Atlantis'),
  );
});
