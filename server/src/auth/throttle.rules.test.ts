import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, waitMessage } from './throttle.rules.js';

const limit = { hits: 3, windowMs: 60_000 };
const start = new Date('2030-01-01T00:00:00Z');
const at = (ms: number) => new Date(start.getTime() + ms);

describe('retryAfterSeconds', () => {
  it.each([1, 2, 3])('allows hit %i of 3', (hits) => {
    expect(retryAfterSeconds({ hits, windowStartedAt: start }, limit, at(10_000))).toBeUndefined();
  });

  it('refuses the hit past the limit until the window reopens', () => {
    expect(retryAfterSeconds({ hits: 4, windowStartedAt: start }, limit, at(10_000))).toBe(50);
  });

  it('asks for at least one second', () => {
    expect(retryAfterSeconds({ hits: 4, windowStartedAt: start }, limit, at(59_999))).toBe(1);
    expect(retryAfterSeconds({ hits: 9, windowStartedAt: start }, limit, at(90_000))).toBe(1);
  });
});

describe('waitMessage', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [900, '15 minutes'],
  ])('says %i s as %j', (seconds, expected) => {
    expect(waitMessage(seconds)).toBe(expected);
  });
});
