import { describe, expect, it } from 'vitest';
import { Shares } from './shares.js';
import { UntriedOrigins, answerOf } from './untried-origins.js';

const KEY = 'team http://x:1';

describe('UntriedOrigins', () => {
  it('holds a team at an origin that has not answered here to its failures, as the claims do, and lifts that once it answers', () => {
    // bench/destinations `shared`: not knowing the claims' cap, the slot claims read the capped
    // team's due events first and found none they could take, and another team's waited.
    const untried = new UntriedOrigins(10);
    expect(untried.places(KEY, 0)).toBe(10);
    untried.note(KEY, 'answered', 5);
    expect(untried.places(KEY, 5)).toBe(Number.POSITIVE_INFINITY);
    untried.idle(KEY, 1000);
    expect(untried.places(KEY, 1000)).toBe(Number.POSITIVE_INFINITY);
    untried.idle(KEY, 5 * 60_000 + 5);
    expect(untried.places(KEY, 5 * 60_000 + 5)).toBe(10);
  });

  it('remembers a bounded number of teams at origins as answering, forgetting those quiet the longest', () => {
    const untried = new UntriedOrigins(10);
    for (let n = 0; n <= 100_000; n++) untried.note(`team http://x:${n}`, 'answered', n);
    untried.note('team http://x:1', 'answered', 200_000);
    untried.note('team http://y:1', 'answered', 200_001);
    expect(untried.places('team http://x:0', 0)).toBe(10);
    expect(untried.places('team http://x:1', 0)).toBe(Number.POSITIVE_INFINITY);
    expect(untried.places('team http://x:2', 0)).toBe(10);
    expect(untried.places('team http://x:3', 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts the failures since the last answer, then lets one call go a second after the last', () => {
    const untried = new UntriedOrigins(3);
    untried.note(KEY, 'down', 0);
    expect(untried.places(KEY, 0)).toBe(2);
    untried.note(KEY, 'down', 10);
    untried.note(KEY, 'down', 20);
    expect(untried.places(KEY, 500)).toBe(0);
    expect(untried.places(KEY, 1020)).toBe(1);
    untried.note(KEY, 'answered', 1100);
    expect(untried.places(KEY, 1100)).toBe(Number.POSITIVE_INFINITY);
    expect(untried.down()).toEqual([]);
  });

  it('forgets failures long past once nothing is in flight', () => {
    const untried = new UntriedOrigins(3);
    untried.note(KEY, 'down', 0);
    untried.idle(KEY, 1000);
    expect(untried.down()).toEqual([KEY]);
    untried.idle(KEY, 5 * 60_000);
    expect(untried.down()).toEqual([]);
  });

  it('splits the failures between the live scheduler processes', () => {
    const untried = new UntriedOrigins(10);
    untried.split(3);
    expect(untried.failures).toBe(4);
  });

  it('takes no response and a 5xx for an origin down, a 4xx for one that answered', () => {
    expect(answerOf({ ok: false, status: null })).toBe('down');
    expect(answerOf({ ok: false, status: 503 })).toBe('down');
    expect(answerOf({ ok: false, status: 404 })).toBe('answered');
    expect(answerOf({ ok: true, status: 200 })).toBe('answered');
  });
});

describe('Shares with an origin that fails', () => {
  const call = { teamId: 'team', origin: 'http://x:1' };

  it('offers the claims the failures as room for an origin not known to answer', () => {
    const shares = new Shares(100, 100, 10);
    expect(shares.snapshot()).toMatchObject({ pairMax: shares.pairMax, untriedMax: 10 });
  });

  it('lists a team at an origin found down with no call in flight, and wakes no claim for it', () => {
    const shares = new Shares(100, 100, 2);
    shares.take(call);
    shares.take(call);
    expect(shares.give(call, { answer: 'down', ms: 1 })).toBe(false);
    expect(shares.give(call, { answer: 'down', ms: 1 })).toBe(false);
    expect(shares.snapshot().pairs).toEqual([{ ...call, held: 0, room: 0, free: 0 }]);
  });
});
