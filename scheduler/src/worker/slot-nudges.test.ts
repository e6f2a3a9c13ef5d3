import { describe, expect, it } from 'vitest';
import { SlotNudges } from './slot-nudges.js';

const HOUR = 3_600_000;
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 10));
  return done;
};

describe('SlotNudges', () => {
  it("ends the wait of the slot's loop, not another slot's", async () => {
    const nudges = new SlotNudges();
    const first = nudges.open(100);
    const second = nudges.open(101);
    const waitingFirst = first.wait(HOUR);
    const waitingSecond = second.wait(HOUR);
    expect(nudges.nudge(100)).toBe(true);
    expect(await settled(waitingFirst)).toBe(true);
    expect(await settled(waitingSecond)).toBe(false);
    second.nudge();
    await waitingSecond;
  });

  it('keeps a nudge that came during a claim for the next wait, and forgets it at the next claim', async () => {
    const nudges = new SlotNudges();
    const loop = nudges.open(100);
    loop.reset();
    nudges.nudge(100);
    expect(await settled(loop.wait(HOUR))).toBe(true);
    loop.reset();
    const waiting = loop.wait(HOUR);
    expect(await settled(waiting)).toBe(false);
    loop.nudge();
    await waiting;
  });

  it('says when no loop of the slot runs here', () => {
    const nudges = new SlotNudges();
    const loop = nudges.open(100);
    nudges.close(100, loop);
    expect(nudges.nudge(100)).toBe(false);
    expect(nudges.nudge(99)).toBe(false);
  });
});
