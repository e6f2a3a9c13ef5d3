import { describe, expect, it } from 'vitest';
import { Shares } from './shares.js';

const call = (teamId: string, origin: string) => ({ teamId, origin });

describe('Shares', () => {
  it('lists the room left of the teams and destinations with calls in flight', () => {
    const shares = new Shares(3, 2);
    shares.take(call('a', 'http://x:1'));
    shares.take(call('a', 'http://y:1'));
    shares.take(call('b', 'http://x:1'));
    expect(shares.snapshot()).toEqual({
      teamMax: 3,
      destinationMax: 2,
      teams: [
        { teamId: 'a', room: 1 },
        { teamId: 'b', room: 2 },
      ],
      destinations: [
        { origin: 'http://x:1', room: 0 },
        { origin: 'http://y:1', room: 1 },
      ],
    });
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
});
