import { describe, expect, it } from 'vitest';
import { Wakeup } from './wakeup.js';

const elapsed = async (work: Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await work;
  return performance.now() - start;
};

describe('Wakeup', () => {
  it('wakes at the tick when nobody pokes', async () => {
    const wakeup = new Wakeup(50, 5);
    expect(await elapsed(wakeup.wait(new AbortController().signal))).toBeGreaterThanOrEqual(45);
  });

  it('wakes shortly after a poke, once for a burst of pokes', async () => {
    const wakeup = new Wakeup(10_000, 5);
    const waiting = wakeup.wait(new AbortController().signal);
    for (let i = 0; i < 10; i++) wakeup.poke();
    expect(await elapsed(waiting)).toBeLessThan(1000);
    let woken = false;
    const next = wakeup.wait(new AbortController().signal).then(() => (woken = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(woken).toBe(false);
    wakeup.stop();
    await next;
  });

  it('remembers a poke that came while nobody waited', async () => {
    const wakeup = new Wakeup(10_000, 1);
    wakeup.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await elapsed(wakeup.wait(new AbortController().signal))).toBeLessThan(1000);
  });

  it('tells the wait a poke for events due soon came, once', async () => {
    const wakeup = new Wakeup(10_000, 1);
    const stopping = new AbortController().signal;
    const waiting = wakeup.wait(stopping);
    wakeup.poke();
    expect(await waiting).toBe(false);
    const ahead = wakeup.wait(stopping);
    wakeup.poke();
    wakeup.pokeAhead();
    expect(await ahead).toBe(true);
    wakeup.poke();
    expect(await wakeup.wait(stopping)).toBe(false);
  });

  it('wakes at once for events due soon, without gathering pokes', async () => {
    // Its tick and its gather an hour each: only a wake at once ends the wait within the test.
    const wakeup = new Wakeup(3_600_000, 3_600_000);
    const waiting = wakeup.wait(new AbortController().signal);
    wakeup.pokeAhead();
    expect(await elapsed(waiting)).toBeLessThan(1000);
  });

  it('wakes when stopping aborts', async () => {
    const wakeup = new Wakeup(10_000, 5);
    const stopping = new AbortController();
    const waiting = wakeup.wait(stopping.signal);
    stopping.abort();
    expect(await elapsed(waiting)).toBeLessThan(1000);
  });
});
