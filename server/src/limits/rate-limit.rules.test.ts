import { describe, expect, it } from 'vitest';
import { type Allowance, type Bucket, takeToken } from './rate-limit.rules.js';

const one: Allowance = { rate: 10, burst: 20, processes: 1 };

function drain(allowance: Allowance, at: number, count: number, start?: Bucket) {
  let bucket = start;
  const verdicts = [];
  for (let i = 0; i < count; i++) {
    const taken = takeToken(bucket, allowance, at);
    bucket = taken.bucket;
    verdicts.push(taken.verdict);
  }
  return { bucket, verdicts };
}

describe('takeToken', () => {
  it('allows a burst up to the limit, then refuses with Retry-After', () => {
    const { verdicts } = drain(one, 0, 21);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(20);
    expect(verdicts[0]).toEqual({ allowed: true, limit: 10, remaining: 19, resetS: 1, retryAfterS: 0 });
    expect(verdicts[19]).toMatchObject({ allowed: true, remaining: 0, resetS: 2 });
    expect(verdicts[20]).toEqual({ allowed: false, limit: 10, remaining: 0, resetS: 2, retryAfterS: 1 });
  });

  it('refills at the rate: 10 per second after the burst, and a refusal takes nothing', () => {
    const { bucket } = drain(one, 0, 25);
    const later = drain(one, 1000, 11, bucket);
    expect(later.verdicts.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('never holds more than the burst, however long the key was idle', () => {
    const { bucket } = drain(one, 0, 1);
    expect(drain(one, 3_600_000, 25, bucket).verdicts.filter((v) => v.allowed)).toHaveLength(20);
  });

  it('gives each of two processes half the rate and burst, and reports the key-wide remaining', () => {
    const two = { ...one, processes: 2 };
    const { bucket, verdicts } = drain(two, 0, 11);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
    expect(verdicts[0]).toMatchObject({ limit: 10, remaining: 18 });
    expect(verdicts[10]).toMatchObject({ allowed: false, retryAfterS: 1 });
    expect(drain(two, 1000, 6, bucket).verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it('says how long until a slow key may retry', () => {
    const slow = { rate: 0.25, burst: 1, processes: 1 };
    const { verdicts } = drain(slow, 0, 2);
    expect(verdicts[1]).toMatchObject({ allowed: false, retryAfterS: 4 });
  });
});
