import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, throttledAddress, waitMessage } from './throttle.rules.js';

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

describe('throttledAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (address, counted) => {
    expect(throttledAddress(address)).toBe(counted);
  });

  it('counts two addresses of one /64 as one client, and of two /64s as two', () => {
    expect(throttledAddress('2001:db8:aa:bb::1')).toBe(throttledAddress('2001:db8:aa:bb:ffff:1:2:3'));
    expect(throttledAddress('2001:db8:aa:bb::1')).not.toBe(throttledAddress('2001:db8:aa:bc::1'));
  });
});
