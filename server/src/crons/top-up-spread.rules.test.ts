import { describe, expect, it } from 'vitest';
import { LEAST_TOP_UP_SPREAD_MS, topUpSpreadMs } from './top-up-spread.rules.js';

const REACH_MS = 66_000;
const MINUTE = 60_000;

describe('the spread of a cron’s top-ups', () => {
  it.each([
    ['a cron with no previous occurrence known', null, LEAST_TOP_UP_SPREAD_MS],
    ['a cron every second', 1000, LEAST_TOP_UP_SPREAD_MS],
    ['a minute cron', MINUTE, LEAST_TOP_UP_SPREAD_MS],
    ['a five-minute cron: from 7 s after one occurrence to the reach before the next', 5 * MINUTE, 227_000],
    ['an hourly cron', 60 * MINUTE, 3_527_000],
  ])('is %s’s gap less the reach and 7 s, or 47 s at least', (_, gapMs, spreadMs) => {
    expect(topUpSpreadMs(gapMs, REACH_MS)).toBe(spreadMs);
  });
});
