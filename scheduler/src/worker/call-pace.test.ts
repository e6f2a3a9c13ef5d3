import { describe, expect, it } from 'vitest';
import { AHEAD_MS, CallPace, leaseAhead } from './call-pace.js';

describe('leaseAhead', () => {
  it.each([
    [37, 2, 296],
    [37, AHEAD_MS, 37],
    [37, 200, 19],
    [37, 1000, 4],
    [37, 30_000, 1],
    [1, 0, 8],
  ])(
    'leases ahead of %i places with calls of %i ms: %i, what they finish in about a claim’s time, at most eight rounds',
    (places, ms, ahead) => {
      expect(leaseAhead(places, ms)).toBe(ahead);
    },
  );
});

describe('CallPace', () => {
  it('leases nothing ahead until a call has ended, then follows the calls’ lasting average', () => {
    const pace = new CallPace();
    expect(pace.ahead('a x', 10)).toBe(0);
    pace.note('a x', 1000);
    expect(pace.ahead('a x', 10)).toBe(1);
    for (let n = 0; n < 30; n++) pace.note('a x', 10);
    expect(pace.ahead('a x', 10)).toBe(80);
    pace.forget('a x');
    expect(pace.ahead('a x', 10)).toBe(0);
  });
});
