import { describe, expect, it } from 'vitest';
import { nextDueMatters } from './slot-wake.js';

const options = { pollMs: 25, claimAheadMs: 100 };
const now = 1_000_000;
const until = new Date(now + 1000);

describe('nextDueMatters', () => {
  it('is false when the claim took the next 75 ms or more and the slot lasts past the next poll', () => {
    expect(nextDueMatters(100, now, until, options)).toBe(false);
    expect(nextDueMatters(75, now, until, options)).toBe(false);
  });

  it('is true when the next event may be due before the next poll would wake the loop', () => {
    expect(nextDueMatters(74, now, until, options)).toBe(true);
    expect(nextDueMatters(0, now, until, options)).toBe(true);
  });

  it('is true when the slot may end by the next poll: the answer says whether to end it', () => {
    expect(nextDueMatters(100, until.getTime() - 25, until, options)).toBe(true);
    expect(nextDueMatters(100, until.getTime() + 5, until, options)).toBe(true);
  });
});
