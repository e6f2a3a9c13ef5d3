import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClaimedAttempt } from '../ports.js';
import { MemoryEventStore, type NewEvent } from '../testing/memory-event-store.js';
import { type Receiver, startReceiver } from '../testing/receiver.js';
import {
  HOUR,
  SECRET,
  claimedBy,
  deliverUntil,
  dueEvent,
  holdingReceiver,
  makeWorker,
} from '../testing/worker-kit.js';
import { Capacity } from './capacity.js';
import { Wakeup } from './wakeup.js';

// A slot's claims take its events up to `claimAheadMs` before their time (docs/reference/behaviour.md,
// "Claimed ahead"), and none of their calls starts before it.
describe('DeliveryWorker claiming ahead', () => {
  let receiver: Receiver;
  let store: MemoryEventStore;

  beforeEach(async () => {
    receiver = await startReceiver((_request, response) => response.end('done'));
    store = new MemoryEventStore({ signingSecrets: () => [SECRET] });
  });

  afterEach(async () => {
    await receiver.close();
  });

  const due = (overrides: Partial<NewEvent> = {}): NewEvent => dueEvent(receiver.url, overrides);

  it('claims a slot’s events ahead of their time and starts none of their calls before it', async () => {
    const events = Array.from({ length: 20 }, (_, i) =>
      due({ scheduledAt: new Date(Date.now() + 200 + 20 * i) }),
    );
    store.insert(events);
    const claimDue = vi.spyOn(store, 'claimDue');
    const { worker, close } = makeWorker(store);
    await deliverUntil(worker, () =>
      expect(events.map((e) => store.get(e.id)?.status)).toEqual(events.map(() => 'success')),
    );
    await close();
    const claimed = await claimedBy(claimDue);
    expect(claimed.filter((attempt) => attempt.dueInMs > 0).length).toBeGreaterThan(0);
    for (const event of events) {
      expect(store.get(event.id)?.executedAt?.getTime()).toBeGreaterThanOrEqual(event.scheduledAt.getTime());
    }
  });

  it('claims a slot’s events ahead while a backlog claim beside it holds places for its time', async () => {
    // bench/destinations `shares`: the slot took the places a running backlog claim had taken for
    // calls held, claimed as if the process were full, and only once its events were due.
    const events = Array.from({ length: 5 }, (_, i) =>
      due({ scheduledAt: new Date(Date.now() + 300 + 20 * i) }),
    );
    store.insert(events);
    let release = () => {};
    const held = new Promise<ClaimedAttempt[]>((resolve) => (release = () => resolve([])));
    const claimBacklog = vi.spyOn(store, 'claimBacklog').mockReturnValueOnce(held);
    const claimDue = vi.spyOn(store, 'claimDue');
    const backlog = new Wakeup(60_000, 5);
    const { worker, close } = makeWorker(store, new Date(0), { backlog });
    const stopping = new AbortController();
    const backlogRunning = worker.runBacklog(stopping.signal);
    backlog.poke();
    await vi.waitFor(() => expect(claimBacklog).toHaveBeenCalledTimes(1));
    await deliverUntil(worker, () =>
      expect(events.map((e) => store.get(e.id)?.status)).toEqual(events.map(() => 'success')),
    );
    release();
    stopping.abort();
    await backlogRunning;
    await close();
    const claimed = await claimedBy(claimDue);
    expect(claimed.filter((attempt) => attempt.dueInMs > 0).length).toBeGreaterThan(0);
  });

  it('claims a slot’s events ahead of their time while the process is full, and starts none before it', async () => {
    // bench/destinations `shares`: with the process full of another team's calls, the slot's claims
    // took a punctual team’s events only once they were due, and their calls started tens of ms late.
    const { receiver: holding, release } = await holdingReceiver();
    const held = due({ teamId: 'busy', webhookUrl: `${holding.url}/held` });
    const punctual = Array.from({ length: 3 }, (_, n) =>
      due({
        teamId: 'other',
        webhookUrl: `${holding.url}/now`,
        scheduledAt: new Date(Date.now() + 300 + 50 * n),
      }),
    );
    store.insert([held, ...punctual]);
    const claimBacklog = vi.spyOn(store, 'claimBacklog');
    // One call held fills it: fewer places than a claim's batch are free.
    const { worker, close } = makeWorker(store, new Date(0), { capacity: new Capacity(10) });
    const stopping = new AbortController();
    const now = Date.now();
    const delivering = worker.deliverSlot(new Date(now - HOUR), new Date(now + HOUR), stopping.signal);
    await vi.waitFor(
      () => expect(punctual.map((e) => store.get(e.id)?.status)).toEqual(punctual.map(() => 'success')),
      { timeout: 10_000 },
    );
    release();
    stopping.abort();
    await delivering;
    await close();
    await holding.close();
    const claimed = await claimedBy(claimBacklog);
    const ahead = claimed.filter((attempt) => attempt.dueInMs > 0).map((attempt) => attempt.id);
    expect(ahead.length).toBeGreaterThan(0);
    expect(punctual.map((e) => e.id)).toEqual(expect.arrayContaining(ahead));
    for (const event of punctual) {
      expect(store.get(event.id)?.executedAt?.getTime()).toBeGreaterThanOrEqual(event.scheduledAt.getTime());
    }
  });
});
