import { describe, expect, it } from 'vitest';
import { OPEN_SHARES } from '../testing/store-under-test.js';
import { filledARoom } from './holders.js';

const call = (teamId: string, origin: string) => ({ teamId, origin });

describe('filledARoom', () => {
  const shares = {
    ...OPEN_SHARES,
    teamMax: 5,
    teams: [{ teamId: 'a', room: 3 }],
    pairs: [{ teamId: 'b', origin: 'http://x:1', held: 0, room: 2 }],
  };

  it('says a claim may have left due events when it took its limit or a room’s worth of a holder', () => {
    expect(filledARoom([call('c', 'http://y:1')], shares, 1)).toBe(true);
    expect(filledARoom([call('a', 'http://y:1'), call('a', 'http://z:1')], shares, 10)).toBe(false);
    expect(
      filledARoom(
        [1, 2, 3].map(() => call('a', 'http://y:1')),
        shares,
        10,
      ),
    ).toBe(true);
    expect(filledARoom([call('b', 'http://x:1'), call('b', 'http://x:1')], shares, 10)).toBe(true);
    expect(
      filledARoom(
        [1, 2, 3, 4, 5].map(() => call('c', 'http://y:1')),
        shares,
        10,
      ),
    ).toBe(true);
    expect(filledARoom([], shares, 10)).toBe(false);
  });
});
