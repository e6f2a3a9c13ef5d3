import { describe, expect, it } from 'vitest';
import { Shares } from './shares.js';
import { WaitingStarts } from './waiting-starts.js';

const call = (teamId: string, origin: string) => ({ teamId, origin });

function spin(ms: number): void {
  for (const end = performance.now() + ms; performance.now() < end;);
}

/** Lets the promise chains already resolved run, without letting a timer fire. */
async function settled(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Calls of teams at one origin for one scheduled time, each waiting for its `dueAt`; `started` in the order placed. */
function callsOfOneTime(shares: Shares) {
  const starts = new WaitingStarts(shares);
  const started: string[] = [];
  const scheduledAt = Date.now() + 1000;
  const wait = (teamId: string, name: string, dueAt: number) =>
    starts
      .placeWhenDue(call(teamId, 'http://x:1'), dueAt, scheduledAt)
      .then((placed) => placed && started.push(name));
  return { started, wait };
}

describe('WaitingStarts', () => {
  it('starts a call at once while its team has a place, else when a call of it ends, in the order claimed', async () => {
    // One place per team at the origin (three quarters of two, rounded down to one).
    const shares = new Shares(10, 2);
    const starts = new WaitingStarts(shares);
    const started: string[] = [];
    const place = (name: string) =>
      starts.place(call('a', 'http://x:1')).then((placed) => placed && started.push(name));
    const first = place('first');
    const second = place('second');
    const third = place('third');
    await first;
    expect(started).toEqual(['first']);
    shares.give(call('a', 'http://x:1'));
    starts.drain(call('a', 'http://x:1'));
    await second;
    expect(started).toEqual(['first', 'second']);
    shares.give(call('a', 'http://x:1'));
    starts.drain(call('a', 'http://x:1'));
    await third;
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('gives a destination’s freed place to the waiting team holding fewest of its calls', async () => {
    const shares = new Shares(10, 4);
    const starts = new WaitingStarts(shares);
    const started: string[] = [];
    const place = (teamId: string) =>
      starts.place(call(teamId, 'http://x:1')).then((placed) => placed && started.push(teamId));
    await Promise.all([place('a'), place('a'), place('a'), place('b')]);
    const waiting = [place('a'), place('b')];
    shares.give(call('a', 'http://x:1'));
    starts.drain(call('a', 'http://x:1'));
    await waiting[1];
    expect(started).toEqual(['a', 'a', 'a', 'b', 'b']);
  });

  it('holds a call claimed ahead until its time, counted meanwhile with the calls waiting, then gives it its place', async () => {
    const shares = new Shares(10, 4);
    const starts = new WaitingStarts(shares);
    const holder = call('a', 'http://x:1');
    const pair = () => shares.snapshot().pairs.find((p) => p.teamId === 'a');
    const dueAt = performance.now() + 50;
    const placing = starts.placeWhenDue(holder, dueAt);
    expect(shares.held(holder)).toBe(0);
    expect(pair()).toMatchObject({ held: 1, room: 2 });
    expect(await placing).toBe(true);
    expect(performance.now()).toBeGreaterThanOrEqual(dueAt);
    expect(shares.held(holder)).toBe(1);
    expect(pair()).toMatchObject({ held: 1, room: 2 });
  });

  it('starts the calls claimed ahead for the same time in the order claimed', async () => {
    const shares = new Shares(100, 100);
    const starts = new WaitingStarts(shares);
    const started: number[] = [];
    const dueAt = performance.now() + 20;
    const placing = Array.from({ length: 8 }, (_, i) => {
      // A claim's calls are set to wait one after the other: the last ones have less time left.
      spin(0.4);
      return starts.placeWhenDue(call('a', 'http://x:1'), dueAt).then(() => started.push(i));
    });
    await Promise.all(placing);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts the calls of one time in the order claimed, though a later claim places that time sooner', async () => {
    // A later claim's reply bounds the database's clock more tightly: the same scheduled time, an
    // earlier dueAt. Its calls started before the first claim's, which had chosen theirs in turns.
    const { started, wait } = callsOfOneTime(new Shares(100, 100));
    const now = performance.now();
    const first = [wait('a', 'first-1', now + 40), wait('a', 'first-2', now + 40)];
    const later = wait('a', 'later', now + 20);
    await Promise.all([...first, later]);
    expect(started).toEqual(['first-1', 'first-2', 'later']);
    expect(performance.now()).toBeGreaterThanOrEqual(now + 20);
  });

  it('starts a call that comes due after the calls of its time that are waiting, though its own time has passed', async () => {
    // A later claim's reply came once the time had passed, while the first claim's calls for it still
    // waited for their timer (a loop busy with other calls runs it late): placed at once, its call
    // took a place first, and the first claim's turns by team then filled the rest: 3 of the 4 first
    // calls from one team, the order fairness.int.test.ts's "calls per destination" once saw.
    const { started, wait } = callsOfOneTime(new Shares(100, 4));
    const now = performance.now();
    for (const name of ['a1', 'b1', 'a2', 'b2']) void wait(name.slice(0, 1), name, now + 60_000);
    void wait('a', 'a3', now - 1);
    // Due, it brings its time's wait forward: the calls start now, not at the first claim's timer.
    await settled();
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('starts the calls whose time has come when asked, without waiting for their timer, and none before', async () => {
    const shares = new Shares(100, 100);
    const starts = new WaitingStarts(shares);
    const placed: string[] = [];
    const now = performance.now();
    for (const [name, ms] of [
      ['soon', 5],
      ['later', 60_000],
    ] as const) {
      void starts.placeWhenDue(call('a', 'http://x:1'), now + ms).then(() => placed.push(name));
    }
    starts.startDue();
    await settled();
    expect(placed).toEqual([]);
    // The event loop busy past the first one's time: its timer cannot have fired.
    spin(10);
    starts.startDue();
    await settled();
    expect(placed).toEqual(['soon']);
  });

  it('hands back the waiting calls no call in flight will make room for', async () => {
    const shares = new Shares(10, 2, 1);
    const starts = new WaitingStarts(shares);
    const holder = call('a', 'http://x:1');
    expect(await starts.place(holder)).toBe(true);
    const waiting = starts.place(holder);
    shares.give(holder, { answer: 'down', ms: 1 });
    starts.drain(call('a', 'http://x:1'));
    expect(await waiting).toBe(false);
  });
});
