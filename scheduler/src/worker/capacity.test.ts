import { describe, expect, it } from 'vitest';
import { Capacity } from './capacity.js';

describe('Capacity', () => {
  it('counts the places a running claim took as not held by calls until it returns', () => {
    const capacity = new Capacity(10);
    capacity.take(2);
    const reserved = capacity.reserve(5);
    expect([capacity.free, capacity.unheld]).toEqual([3, 8]);
    capacity.settle(reserved, 1);
    expect([capacity.free, capacity.unheld]).toEqual([7, 7]);
  });

  it('says a claim cut short may find room once a batch of deliveries (a quarter) has ended since', () => {
    const capacity = new Capacity(8);
    expect(capacity.take(10)).toBe(8);
    capacity.cutShort();
    expect(capacity.release()).toBe(false);
    expect(capacity.release()).toBe(true);
    expect(capacity.release()).toBe(false);
  });

  it('does not count places a claim took and did not use as deliveries that ended', () => {
    const capacity = new Capacity(8);
    capacity.cutShort();
    capacity.give(capacity.take(8));
    expect(capacity.free).toBe(8);
    expect(capacity.release()).toBe(false);
    expect(capacity.release()).toBe(true);
  });

  it('waits for as many free places as asked', async () => {
    const capacity = new Capacity(4);
    capacity.take(4);
    let roomFor3 = false;
    const waiting = capacity.room(3).then(() => (roomFor3 = true));
    capacity.release();
    capacity.release();
    await Promise.resolve();
    expect(roomFor3).toBe(false);
    capacity.release();
    await waiting;
    expect(capacity.free).toBe(3);
  });

  it('says nothing when no claim was cut short', () => {
    const capacity = new Capacity(4);
    capacity.take(4);
    expect([capacity.release(), capacity.release(), capacity.release(), capacity.release()]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('says when a claim begins to wait for places, and while places are wanted', async () => {
    const capacity = new Capacity(200);
    let wants = 0;
    capacity.onWant = () => (wants += 1);
    await capacity.room(200);
    expect([wants, capacity.wanted]).toEqual([0, false]);
    capacity.take(190);
    const waiting = capacity.room(20);
    expect([wants, capacity.wanted]).toEqual([1, true]);
    capacity.give(10);
    await waiting;
    expect([wants, capacity.wanted]).toEqual([1, false]);
    // Fewer free than the fewest a claim waits for (a hundredth): wanted, whether or not one waits.
    capacity.take(19);
    expect([wants, capacity.wanted]).toEqual([1, true]);
  });
});
