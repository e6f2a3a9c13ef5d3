import { describe, expect, it, vi } from 'vitest';
import { Shares, refillBatch } from './shares.js';

const call = (teamId: string, origin: string) => ({ teamId, origin });

describe('Shares', () => {
  it('lists the room left of the teams, destinations and teams at destinations with calls in flight', () => {
    const shares = new Shares(3, 4);
    shares.take(call('a', 'http://x:1'));
    shares.take(call('a', 'http://y:1'));
    shares.take(call('b', 'http://x:1'));
    shares.take(call('b', 'http://x:1'));
    expect(shares.snapshot()).toEqual({
      teamMax: 3,
      destinationMax: 4,
      pairMax: 3,
      untriedMax: 3,
      teams: [
        { teamId: 'a', room: 1 },
        { teamId: 'b', room: 1 },
      ],
      destinations: [
        { origin: 'http://x:1', room: 1 },
        { origin: 'http://y:1', room: 3 },
      ],
      pairs: [
        { teamId: 'a', origin: 'http://x:1', held: 1, room: 2, free: 2 },
        { teamId: 'a', origin: 'http://y:1', held: 1, room: 2, free: 2 },
        { teamId: 'b', origin: 'http://x:1', held: 2, room: 1, free: 1 },
      ],
    });
  });

  it.each([
    [50, 37],
    [4, 3],
    [2, 1],
    [1, 1],
  ])('lets one team hold at most three quarters of a destination share of %i: %i', (destination, pair) => {
    expect(new Shares(10, destination).pairMax).toBe(pair);
  });

  it('gives a team the whole destination share while its calls there are quick, three quarters while they are slow or unknown', () => {
    const shares = new Shares(250, 8);
    const a = call('a', 'http://x:1');
    for (let i = 0; i < 6; i++) shares.take(a);
    expect(shares.startable(a)).toBe('wait');
    shares.give(a, { answer: 'answered', ms: 5 });
    shares.take(a);
    for (let i = 0; i < 2; i++) {
      expect(shares.startable(a)).toBe('now');
      shares.take(a);
    }
    // All eight places held: another team's call waits for the next one freed (WaitingStarts).
    expect(shares.startable(a)).toBe('wait');
    expect(shares.startable(call('b', 'http://x:1'))).toBe('wait');
    // Its calls turn slow: it starts none until it holds fewer than six.
    for (let i = 0; i < 2; i++) shares.give(a, { answer: 'answered', ms: 2000 });
    expect(shares.startable(a)).toBe('wait');
    shares.give(a, { answer: 'answered', ms: 2000 });
    expect(shares.startable(a)).toBe('now');
  });

  it('wakes whoever waits for room when a call of a holder at its share ends, and only then', async () => {
    const shares = new Shares(10, 4);
    for (let i = 0; i < 3; i++) shares.take(call('a', 'http://x:1'));
    shares.take(call('b', 'http://y:1'));
    let woken = false;
    const waiting = shares.whenFreed(60_000).then(() => (woken = true));
    shares.give(call('b', 'http://y:1'));
    await Promise.resolve();
    expect(woken).toBe(false);
    shares.give(call('a', 'http://x:1'));
    await waiting;
    expect(woken).toBe(true);
  });

  it('resolves a wait for room after its time when nothing ends', async () => {
    const started = performance.now();
    await new Shares(10, 4).whenFreed(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('says a call of a team that reached its share ended, until it has no call in flight', () => {
    const shares = new Shares(2, 10);
    shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(false);
    shares.take(call('a', 'http://x:1'));
    shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
    shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
    expect(shares.snapshot()).toMatchObject({ teams: [], destinations: [] });
    shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(false);
  });

  it('says a holder at its share has room once a batch of its places is free, so that a claim takes several', () => {
    const shares = new Shares(8, 100);
    for (let i = 0; i < 8; i++) shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(false);
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
    expect([1, 3, 4, 8, 37, 50].map(refillBatch)).toEqual([1, 1, 1, 2, 9, 12]);
  });

  it('says so for a destination at its share too', () => {
    const shares = new Shares(10, 1);
    shares.take(call('a', 'http://x:1'));
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
  });

  it.each([
    [50, 1, 50],
    [50, 2, 25],
    [50, 3, 17],
    [2, 5, 1],
    [50, 0, 50],
  ])('splits a destination limit of %i between %i processes: %i each', (total, processes, each) => {
    const shares = new Shares(10, total);
    shares.splitDestinations(processes);
    expect(shares.destinationMax).toBe(each);
  });

  it('narrows a team’s room at a destination to its own most calls at once, listing the pair before any call', () => {
    const shares = new Shares(100, 40);
    shares.setLimits([{ teamId: 'a', origin: 'http://x:1', maxInFlight: 2, rate: null }], 1);
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 0, room: 2, free: 2 },
    ]);
    shares.take(call('a', 'http://x:1'));
    shares.take(call('a', 'http://x:1'));
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 2, room: 0, free: 0 },
    ]);
    expect(shares.give(call('a', 'http://x:1'))).toBe(true);
  });

  it('takes a team’s rate at a destination, split between the processes, and says when it reopens', async () => {
    const shares = new Shares(100, 40);
    let reopened = 0;
    shares.onRoom = () => (reopened += 1);
    shares.setLimits(
      [{ teamId: 'a', origin: 'http://x:1', maxInFlight: null, rate: { requests: 4, perMs: 50 } }],
      2,
    );
    // Paced: at most a fifth of the window's starts (rounded up) in any fifth of it.
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 0, room: 1, free: 1 },
    ]);
    shares.take(call('a', 'http://x:1'));
    shares.give(call('a', 'http://x:1'));
    shares.take(call('a', 'http://x:1'));
    shares.give(call('a', 'http://x:1'));
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 0, room: 0, free: 0 },
    ]);
    await shares.whenFreed(5_000);
    expect(reopened).toBe(1);
    // The two starts may fall in different milliseconds on a loaded machine: each leaves on its own.
    await vi.waitFor(() =>
      expect(shares.snapshot().pairs).toEqual([
        { teamId: 'a', origin: 'http://x:1', held: 0, room: 1, free: 1 },
      ]),
    );
  });

  it('forgets the limits a refresh no longer lists', () => {
    const shares = new Shares(100, 40);
    shares.setLimits([{ teamId: 'a', origin: 'http://x:1', maxInFlight: 1, rate: null }], 1);
    shares.setLimits([], 1);
    expect(shares.snapshot().pairs).toEqual([]);
  });
});

describe('Shares, calls leased ahead', () => {
  const quick = { answer: 'answered', ms: 2 } as const;
  const a = call('a', 'http://x:1');

  /** Team a holding all 50 places at http://x:1, its calls known to last 2 ms. */
  function busy(shares: Shares): void {
    for (let i = 0; i < 51; i++) shares.take(a);
    shares.give(a, quick);
  }

  it('leases up to eight rounds of a busy team’s places at a destination when its calls are quick, not counted in its team’s turn', () => {
    const shares = new Shares(250, 50);
    busy(shares);
    const snapshot = shares.snapshot();
    // Its places finish ~2,500 calls in 100 ms: eight rounds of 50, none free for a slot's claim.
    expect(snapshot.pairs).toEqual([{ teamId: 'a', origin: 'http://x:1', held: 50, room: 400, free: 0 }]);
    expect(snapshot.destinations).toEqual([{ origin: 'http://x:1', room: 400 }]);
    expect(snapshot.teams).toEqual([{ teamId: 'a', room: 200 }]);
  });

  it('leases few ahead of a team whose calls are slow, and none at a rate limit', () => {
    const shares = new Shares(250, 50);
    for (let i = 0; i < 37; i++) shares.take(a);
    shares.give(a, { answer: 'answered', ms: 1000 });
    // One place free, too few for a slot's claim (a refill batch is 9); four calls ahead.
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 36, room: 5, free: 0 },
    ]);
    shares.setLimits(
      [{ teamId: 'a', origin: 'http://x:1', maxInFlight: null, rate: { requests: 1000, perMs: 1000 } }],
      1,
    );
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 36, room: 1, free: 1 },
    ]);
  });

  it('counts the calls waiting as the team’s at the destination, and says when a batch of both has freed', () => {
    const shares = new Shares(250, 50);
    busy(shares);
    for (let i = 0; i < 400; i++) shares.queue(a);
    expect(shares.startable(a)).toBe('wait');
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 450, room: 0, free: 0 },
    ]);
    // Each call that ends starts a waiting one: the claim refills once a quarter of 450 has gone.
    const refills: boolean[] = [];
    for (let i = 0; i < 113; i++) {
      refills.push(shares.give(a, quick));
      expect(shares.startable(a)).toBe('now');
      shares.unqueue(a);
      shares.take(a);
    }
    expect(refills.indexOf(true)).toBe(111);
    expect(shares.snapshot().pairs).toEqual([
      { teamId: 'a', origin: 'http://x:1', held: 337, room: 113, free: 0 },
    ]);
  });

  it('keeps a team that reached its places listed for a second after its last call, leasing ahead', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const shares = new Shares(250, 50);
      busy(shares);
      for (let i = 0; i < 50; i++) shares.give(a, quick);
      expect(shares.snapshot().pairs).toEqual([
        { teamId: 'a', origin: 'http://x:1', held: 0, room: 450, free: 50 },
      ]);
      vi.advanceTimersByTime(1000);
      expect(shares.snapshot().pairs).toEqual([]);
      // A team that never reached its places is not listed once idle.
      shares.take(a);
      shares.give(a, quick);
      expect(shares.snapshot().pairs).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands back a call that nothing in flight would make room for', () => {
    const shares = new Shares(250, 50, 2);
    shares.take(a);
    shares.take(a);
    shares.give(a, { answer: 'down', ms: 1 });
    expect(shares.startable(a)).toBe('wait');
    shares.give(a, { answer: 'down', ms: 1 });
    expect(shares.startable(a)).toBe('back');
  });
});
