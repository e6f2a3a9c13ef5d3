import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HoldEnds } from './hold-ends.js';

/** A store whose holds end at the given times (fake-clock ms); a release frees those ended. */
function storeWithHoldsEndingAt(ends: number[]) {
  const left = [...ends];
  const releases: number[] = [];
  return {
    releases,
    releaseDestinations: () => {
      const now = Date.now();
      const ended = left.filter((end) => end <= now);
      for (const end of ended) left.splice(left.indexOf(end), 1);
      if (ended.length > 0) releases.push(now);
      return Promise.resolve(ended.length);
    },
    nextReleaseInMs: () => {
      const next = Math.min(...left);
      return Promise.resolve(Number.isFinite(next) ? next - Date.now() : null);
    },
  };
}

function holdEnds(store: ReturnType<typeof storeWithHoldsEndingAt>) {
  const onReleased = vi.fn();
  const ends = new HoldEnds({
    store,
    onReleased,
    onError: (error) => expect.fail(String(error)),
    reconcileEveryMs: 2000,
  });
  return { ends, onReleased };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('HoldEnds', () => {
  it('releases a hold when it ends before the next reconcile, and each one after it', async () => {
    const store = storeWithHoldsEndingAt([700, 1500]);
    const { ends, onReleased } = holdEnds(store);
    await ends.release();
    expect(store.releases).toEqual([]);
    await vi.advanceTimersByTimeAsync(699);
    expect(store.releases).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(store.releases).toEqual([701]);
    expect(onReleased).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.releases).toEqual([701, 1501]);
    expect(onReleased).toHaveBeenCalledTimes(2);
  });

  it('leaves an end after the next reconcile to that reconcile', async () => {
    const store = storeWithHoldsEndingAt([2500]);
    const { ends } = holdEnds(store);
    await ends.release();
    await vi.advanceTimersByTimeAsync(3000);
    expect(store.releases).toEqual([]);
    await ends.release();
    expect(store.releases).toEqual([3000]);
  });

  it('watches for the end of a hold begun here, one lookup at a time and one more for those meanwhile', async () => {
    const store = storeWithHoldsEndingAt([800]);
    const lookups = vi.spyOn(store, 'nextReleaseInMs');
    const { ends, onReleased } = holdEnds(store);
    ends.holdBegan();
    ends.holdBegan();
    ends.holdBegan();
    await vi.advanceTimersByTimeAsync(0);
    expect(lookups).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(801);
    expect(store.releases).toEqual([801]);
    expect(onReleased).toHaveBeenCalledTimes(1);
  });

  it('keeps the answer of the latest lookup when an earlier one comes back after it', async () => {
    const answers: ((inMs: number | null) => void)[] = [];
    const store = {
      releaseDestinations: () => Promise.resolve(0),
      nextReleaseInMs: () => new Promise<number | null>((resolve) => answers.push(resolve)),
    };
    const ends = new HoldEnds({ store, onReleased: () => {}, onError: () => {}, reconcileEveryMs: 2000 });
    const releasing = ends.release();
    await vi.advanceTimersByTimeAsync(0);
    ends.holdBegan();
    await vi.advanceTimersByTimeAsync(0);
    answers[1]?.(500);
    await vi.advanceTimersByTimeAsync(0);
    answers[0]?.(null);
    await releasing;
    expect(vi.getTimerCount()).toBe(1);
  });

  it('reports a failed lookup without failing the release, so the rest of the reconcile goes on', async () => {
    const onError = vi.fn();
    const store = {
      releaseDestinations: () => Promise.resolve(1),
      nextReleaseInMs: () => Promise.reject(new Error('connection lost')),
    };
    const onReleased = vi.fn();
    const ends = new HoldEnds({ store, onReleased, onError, reconcileEveryMs: 2000 });
    await expect(ends.release()).resolves.toBeUndefined();
    expect(onReleased).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(new Error('connection lost'));
  });

  it('keeps one timer however often it is asked, and none once stopped', async () => {
    const store = storeWithHoldsEndingAt([500]);
    const { ends, onReleased } = holdEnds(store);
    await Promise.all([ends.release(), ends.release(), ends.release()]);
    expect(vi.getTimerCount()).toBe(1);
    ends.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onReleased).not.toHaveBeenCalled();
  });
});
