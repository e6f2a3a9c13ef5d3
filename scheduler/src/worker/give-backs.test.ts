import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../testing/worker-kit.js';
import { GiveBacks, type Leased } from './give-backs.js';

const attempt = (id: string): Leased => ({ id, leaseToken: `token-${id}` });

describe('GiveBacks', () => {
  let down: boolean;
  let released: Leased[][];
  let given: number;
  let giveBacks: GiveBacks;

  beforeEach(() => {
    vi.useFakeTimers();
    down = false;
    released = [];
    given = 0;
    giveBacks = new GiveBacks(
      (attempts) => {
        if (down) return Promise.reject(new Error('connect ECONNREFUSED'));
        released.push(attempts);
        return Promise.resolve();
      },
      () => (given += 1),
      logger,
    );
  });
  afterEach(() => vi.useRealTimers());

  it('gives back at once while the database answers', async () => {
    await giveBacks.giveBack([attempt('a')]);
    expect(released).toEqual([[attempt('a')]]);
    expect(given).toBe(1);
    expect(giveBacks.waiting).toBe(0);
  });

  it('offers again what the database did not take, backing off, until it does', async () => {
    down = true;
    await expect(giveBacks.giveBack([attempt('a')])).resolves.toBeUndefined();
    await giveBacks.giveBack([attempt('b'), attempt('a')]);
    expect(giveBacks.waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(250 + 500 + 1000);
    expect(released).toEqual([]);

    down = false;
    await vi.advanceTimersByTimeAsync(999);
    expect(released).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(released).toEqual([[attempt('a'), attempt('b')]]);
    expect(given).toBe(1);
    expect(giveBacks.waiting).toBe(0);

    // The next outage starts from the first delay again.
    down = true;
    await giveBacks.giveBack([attempt('c')]);
    down = false;
    await vi.advanceTimersByTimeAsync(250);
    expect(released.at(-1)).toEqual([attempt('c')]);
  });

  it('never offers more than a second apart', async () => {
    down = true;
    await giveBacks.giveBack([attempt('a')]);
    await vi.advanceTimersByTimeAsync(60_000);
    down = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(released).toEqual([[attempt('a')]]);
  });
});
