import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_CLAIMS } from '../attempt.rules.js';
import type { ClaimedAttempt } from '../ports.js';
import { MemoryEventStore, type NewEvent } from '../testing/memory-event-store.js';
import { type Receiver, startReceiver } from '../testing/receiver.js';
import { verifiesSignature } from '../testing/verify-signature.js';
import {
  HOUR,
  SECRET,
  deliverFor,
  deliverUntil,
  dueEvent,
  holdingReceiver,
  logger,
  makeWorker,
} from '../testing/worker-kit.js';
import { STALE_SLOT_MS, slotOf } from '../timer/slot-jobs.js';
import { Capacity } from './capacity.js';
import { OutcomeWriter } from './outcome-writer.js';
import { Shares } from './shares.js';
import { Wakeup } from './wakeup.js';

describe('DeliveryWorker over the memory store', () => {
  let receiver: Receiver;
  let answers: number[];
  let store: MemoryEventStore;

  beforeEach(async () => {
    answers = [];
    receiver = await startReceiver((_request, response) => {
      response.statusCode = answers.shift() ?? 200;
      response.end('done');
    });
    store = new MemoryEventStore({ signingSecrets: () => [SECRET] });
  });

  afterEach(async () => {
    await receiver.close();
  });

  const due = (overrides: Partial<NewEvent> = {}): NewEvent => dueEvent(receiver.url, overrides);

  it('calls the due events of its slot once each, signed, and records their success', async () => {
    const events = [due(), due(), due()];
    store.insert(events);
    const { worker, close } = makeWorker(store);
    expect(await deliverFor(worker, 50)).toBe(true);
    await close();
    expect(receiver.hits.map((hit) => hit.headers['webhook-id']).sort()).toEqual(
      events.map((e) => e.id).sort(),
    );
    for (const hit of receiver.hits) {
      const { 'webhook-id': id, 'webhook-timestamp': at, 'webhook-signature': signature } = hit.headers;
      expect(verifiesSignature(SECRET, String(id), String(at), hit.raw, String(signature))).toBe(true);
    }
    for (const event of events) {
      expect(store.get(event.id)).toMatchObject({ status: 'success', responseStatus: 200, leaseToken: null });
    }
  });

  it('frees a team’s and a destination’s place when the call ends, before its outcome is recorded', async () => {
    store.insert([due()]);
    const shares = new Shares(10, 10);
    const writer = new OutcomeWriter(store, logger, { maxBatch: 10, maxDelayMs: 1 });
    let record = () => {};
    const recorded = new Promise<void>((resolve) => (record = resolve));
    const held = vi.spyOn(writer, 'add').mockImplementation(async (...args) => {
      await recorded;
      return OutcomeWriter.prototype.add.apply(writer, args);
    });
    const { worker, close } = makeWorker(store, new Date(0), { shares, writer });
    const delivering = deliverFor(worker, 50);
    await vi.waitFor(() => expect(held).toHaveBeenCalledTimes(1));
    expect(shares.snapshot()).toMatchObject({ teams: [], destinations: [], pairs: [] });
    record();
    expect(await delivering).toBe(true);
    await close();
    expect(receiver.hits).toHaveLength(1);
  });

  it('claims the backlog again once the process’s capacity frees, when that held due events back', async () => {
    // bench/delivery, shares lifted: the capacity, not a share, was full, nothing poked the backlog,
    // and due events waited for its next tick (1 s) again and again.
    store.insert(Array.from({ length: 6 }, () => due()));
    const backlog = new Wakeup(60_000, 5);
    const { worker, close } = makeWorker(store, new Date(0), { capacity: new Capacity(2), backlog });
    const stopping = new AbortController();
    const running = worker.runBacklog(stopping.signal);
    backlog.poke();
    await vi.waitFor(() => expect(receiver.hits).toHaveLength(6), { timeout: 4000 });
    stopping.abort();
    await running;
    await close();
  });

  it('writes outcomes without waiting to gather more while a claim waits for the places they hold', async () => {
    // bench/delivery: outcomes gathered for 25 ms held the places a full process's claims waited for.
    store.insert(Array.from({ length: 6 }, () => due()));
    const capacity = new Capacity(2);
    const writer = new OutcomeWriter(store, logger, {
      maxBatch: 10,
      maxDelayMs: 60_000,
      wantedDelayMs: 1,
      placesWanted: () => capacity.wanted,
    });
    capacity.onWant = () => writer.hurry();
    const { worker, close } = makeWorker(store, new Date(0), { capacity, writer });
    const stopping = new AbortController();
    const now = Date.now();
    const delivering = worker.deliverSlot(new Date(now - HOUR), new Date(now + HOUR), stopping.signal);
    await vi.waitFor(() => expect(receiver.hits).toHaveLength(6), { timeout: 4000 });
    // The last outcomes may find a place free: they wait the long delay, unless flushed.
    stopping.abort();
    let ended = false;
    const ending = delivering.finally(() => (ended = true));
    while (!ended) {
      await writer.flush();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await ending;
    await close();
    expect(store.all().map((event) => event.status)).toEqual(Array(6).fill('success'));
  });

  it('pokes the backlog once the outcome of a call to an origin found down, now answering, is written', async () => {
    // bench/destinations `outage`: the probe's success closes the circuit and releases the held
    // events, which then waited for the backlog's next tick (1 s).
    const backlog = new Wakeup(60_000, 5);
    const shares = new Shares(10, 10, 10);
    const { worker, close } = makeWorker(store, new Date(0), { shares, backlog });
    const watch = () => {
      let poked = false;
      void backlog.wait(new AbortController().signal).then(() => (poked = true));
      return () => poked;
    };
    answers.push(503);
    store.insert([due()]);
    const afterDown = watch();
    expect(await deliverFor(worker, 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(afterDown()).toBe(false);
    backlog.poke();
    await vi.waitFor(() => expect(afterDown()).toBe(true));

    store.insert([due()]);
    const afterAnswer = watch();
    expect(await deliverFor(worker, 50)).toBe(true);
    await vi.waitFor(() => expect(afterAnswer()).toBe(true));
    await close();
    expect(receiver.hits).toHaveLength(2);
  });

  it('leaves a tenth of the process’s places to what falls due now, however large the backlog', async () => {
    // bench/scale `catch-up`: a downtime's backlog took every place, and the seconds falling due
    // waited for its outcomes to be written.
    const { receiver: holding, release } = await holdingReceiver();
    const old = Array.from({ length: 30 }, () =>
      due({ scheduledAt: new Date(Date.now() - 60_000), webhookUrl: `${holding.url}/held` }),
    );
    store.insert(old);
    const wakeup = new Wakeup(60_000, 5);
    const { worker, close } = makeWorker(store, new Date(Date.now() - 30_000), {
      capacity: new Capacity(10),
      shares: new Shares(100, 100),
      backlog: wakeup,
    });
    const stopping = new AbortController();
    const backlog = worker.runBacklog(stopping.signal);
    wakeup.poke();
    await vi.waitFor(() => expect(holding.hits).toHaveLength(9));
    const current = due({ teamId: 'other', webhookUrl: `${holding.url}/now` });
    store.insert([current]);
    const now = Date.now();
    const slot = worker.deliverSlot(new Date(now - 1000), new Date(now + 1000), stopping.signal);
    await vi.waitFor(() => expect(store.get(current.id)?.status).toBe('success'));
    expect(holding.hits.filter((hit) => hit.url === '/held')).toHaveLength(9);
    release();
    await vi.waitFor(() => expect(holding.hits).toHaveLength(31), { timeout: 10_000 });
    stopping.abort();
    await Promise.all([backlog, slot]);
    await close();
    await holding.close();
  });

  it('gives a place freed in a full process to another team, not to the busiest team’s earlier events of the slot', async () => {
    // bench/scale's slow scenario: with every place held by slow calls, each slot claim took the
    // place just freed for a busy team's earlier event of the second, and another team's waited.
    // Calls end one at a time: every other one takes three times as long.
    let calls = 0;
    const slow = await startReceiver((_request, response) => {
      calls += 1;
      setTimeout(() => response.end('slow'), calls % 2 === 0 ? 150 : 50);
    });
    const at = (ms: number) => new Date(Date.now() - 1000 + ms);
    const busy = Array.from({ length: 12 }, (_, n) =>
      due({ teamId: 'busy', webhookUrl: `${slow.url}/busy`, scheduledAt: at(n) }),
    );
    const other = due({ teamId: 'other', webhookUrl: `${slow.url}/other`, scheduledAt: at(100) });
    store.insert([...busy, other]);
    const { worker, close } = makeWorker(store, new Date(0), { capacity: new Capacity(2) });
    await deliverUntil(worker, () => expect(slow.hits).toHaveLength(13));
    await close();
    // The busy team's first two took the two free places; the first place freed went to the other team.
    expect(slow.hits.map((hit) => hit.url).indexOf('/other')).toBe(2);
    await slow.close();
  });

  it('leases a team’s calls ahead of its places at an origin once they are known to be quick, never more at once than its places', async () => {
    // bench/destinations `shares`: a team held to its places at an origin waited for a claim after
    // every few calls; calls leased ahead wait in the process and start as places free. One call in
    // nine is slow, so the team is busy when claims look.
    let calls = 0;
    let open = 0;
    let mostOpen = 0;
    const quick = await startReceiver((_request, response) => {
      calls += 1;
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(
        () => {
          open -= 1;
          response.end('ok');
        },
        calls % 9 === 1 ? 300 : 5,
      );
    });
    store.insert(
      Array.from({ length: 60 }, (_, n) =>
        due({ webhookUrl: `${quick.url}/quick`, scheduledAt: new Date(Date.now() - 1000 + n) }),
      ),
    );
    const claimSizes: number[] = [];
    const slowly =
      <T>(claim: (options: T) => Promise<ClaimedAttempt[]>) =>
      async (options: T) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const claimed = await claim(options);
        claimSizes.push(claimed.length);
        return claimed;
      };
    store.claimDue = slowly(store.claimDue.bind(store));
    store.claimBacklog = slowly(store.claimBacklog.bind(store));
    // Eight places at the origin, all the team's once its calls are known to be quick; claims of ten.
    const shares = new Shares(100, 8);
    const { worker, close } = makeWorker(store, new Date(0), { shares, capacity: new Capacity(100) });
    await deliverUntil(worker, () =>
      expect(store.all().filter((event) => event.status === 'success')).toHaveLength(60),
    );
    await close();
    await quick.close();
    expect(calls).toBe(60);
    expect(mostOpen).toBeLessThanOrEqual(shares.destinationMax);
    expect(Math.max(...claimSizes)).toBeGreaterThan(shares.destinationMax);
  });

  it('retries a failed call per the policy within the slot and settles the original on success', async () => {
    answers = [503];
    const event = due({ retryConfig: { maxRetries: 2, backoffMs: 50, backoffType: 'linear' } });
    store.insert([event]);
    const { worker, close } = makeWorker(store);
    await deliverFor(worker, 1000);
    await close();
    expect(receiver.hits.map((hit) => hit.headers['webhook-id'])).toEqual([event.id, event.id]);
    const [original, retry] = store.all();
    expect(original).toMatchObject({ id: event.id, status: 'success', responseStatus: 503 });
    expect(retry).toMatchObject({ retryOf: event.id, attempt: 1, status: 'success', responseStatus: 200 });
  });

  it('does not call an event missed while no scheduler ran, and fails it', async () => {
    const event = due({ scheduledAt: new Date(Date.now() - 2 * HOUR + 60_000) });
    store.insert([event]);
    const { worker, close } = makeWorker(store, new Date());
    await worker.deliverSlot(new Date(Date.now() - 3 * HOUR), new Date(), new AbortController().signal);
    await close();
    expect(receiver.hits).toHaveLength(0);
    expect(store.get(event.id)).toMatchObject({ status: 'failed', executedAt: null });
    expect(store.get(event.id)?.responseError).toMatch(/^missed: /);
  });

  it('sends an event due within the tolerance before service began, however long after that it is sent', async () => {
    // Due 50 min before schedulers ran again, sent 20 min after: 70 min late, still not missed.
    const servedSince = new Date(Date.now() - 20 * 60_000);
    const event = due({ scheduledAt: new Date(servedSince.getTime() - 50 * 60_000) });
    store.insert([event]);
    const { worker, close } = makeWorker(store, servedSince);
    await worker.deliverSlot(new Date(Date.now() - 3 * HOUR), new Date(), new AbortController().signal);
    await close();
    expect(receiver.hits).toHaveLength(1);
    expect(store.get(event.id)).toMatchObject({ status: 'success', responseStatus: 200 });
  });

  it('asks when the next event falls due only where the answer can move its wake, and still ends the slot', async () => {
    // Events every 20 ms over the slot's 400 ms, a claim every poll (10 ms) taking those due within
    // its 50 ms look-ahead: the next not taken wakes the loop no sooner than 25 ms on, past the poll.
    const start = Date.now();
    const events = Array.from({ length: 20 }, (_, i) => due({ scheduledAt: new Date(start + 20 * i) }));
    store.insert(events);
    const claims = vi.spyOn(store, 'claimDue');
    const probes = vi.spyOn(store, 'nextDueAt');
    const { worker, close } = makeWorker(store, new Date(0), {
      capacity: new Capacity(100),
      shares: new Shares(100, 100),
    });
    const slot = worker.deliverSlot(
      new Date(start - 1000),
      new Date(start + 400),
      new AbortController().signal,
    );
    expect(await slot).toBe(true);
    await close();
    expect(receiver.hits).toHaveLength(20);
    expect(claims.mock.calls.length).toBeGreaterThanOrEqual(10);
    // Asked near the slot's end; elsewhere only after a claim slower than 15 ms (a loaded machine).
    expect(probes.mock.calls.length).toBeLessThan(claims.mock.calls.length / 2);
    expect(probes.mock.calls.length).toBeGreaterThanOrEqual(1);
  });

  it(
    'claims an event written to fall due soon in a running slot at once, not at its next poll',
    { timeout: 30_000 },
    async () => {
      const { worker, close } = makeWorker(store, new Date(0), { options: { pollMs: HOUR } });
      const stopping = new AbortController();
      const from = new Date(Date.now() - 1000);
      const probes = vi.spyOn(store, 'nextDueAt');
      const slot = worker.deliverSlot(from, new Date(Date.now() + HOUR), stopping.signal);
      // Once it has claimed and found nothing to come, the loop sleeps until its poll, an hour away.
      await vi.waitFor(() => expect(probes).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      expect(await probes.mock.results[0]?.value).toBeNull();
      const event = due({ scheduledAt: new Date(Date.now() + 20) });
      store.insert([event]);
      worker.dueSoon(slotOf(from));
      await vi.waitFor(() => expect(receiver.hits).toHaveLength(1), { timeout: 20_000 });
      stopping.abort();
      // Its wait for the next poll, an hour, ends only with a nudge.
      worker.dueSoon(slotOf(from));
      await slot;
      await close();
    },
  );

  it(
    'claims an event due soon ahead on the backlog line when no slot of its second runs here',
    { timeout: 30_000 },
    async () => {
      const backlog = new Wakeup(HOUR, 5);
      const { worker, close } = makeWorker(store, new Date(0), { backlog, options: { claimAheadMs: 2000 } });
      const stopping = new AbortController();
      const running = worker.runBacklog(stopping.signal);
      const claims = vi.spyOn(store, 'claimBacklog');
      const event = due({ scheduledAt: new Date(Date.now() + 1000) });
      store.insert([event]);
      worker.dueSoon(slotOf(event.scheduledAt));
      await vi.waitFor(() => expect(claims).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      expect(claims.mock.calls[0]?.[0]).toMatchObject({ aheadMs: 2000 });
      // Taken before its time, as a slot's claim takes it: the call starts once it is due.
      expect(await claims.mock.results[0]?.value).toHaveLength(1);
      await vi.waitFor(() => expect(receiver.hits).toHaveLength(1), { timeout: 20_000 });
      stopping.abort();
      await running;
      await close();
    },
  );

  it('leaves a slot it starts long after its second to the backlog’s claims, and pokes them', async () => {
    // bench/scale `catch-up`: after a stop, the jobs of every missed second, run one by one, held the
    // seconds falling due now behind them.
    const second = Date.now() - STALE_SLOT_MS - 2000;
    const event = due({ scheduledAt: new Date(second) });
    store.insert([event]);
    const backlog = new Wakeup(60_000, 5);
    const { worker, close } = makeWorker(store, new Date(0), { backlog });
    const poked = backlog.wait(new AbortController().signal);
    expect(
      await worker.deliverSlot(new Date(second), new Date(second + 1000), new AbortController().signal),
    ).toBe(true);
    await poked;
    expect(receiver.hits).toHaveLength(0);
    expect(store.get(event.id)).toMatchObject({ status: 'pending' });
    const stopping = new AbortController();
    const running = worker.runBacklog(stopping.signal);
    backlog.poke();
    await vi.waitFor(() => expect(receiver.hits).toHaveLength(1), { timeout: 4000 });
    stopping.abort();
    await running;
    await close();
  });

  it('takes the events left of earlier seconds once a claim filled a room, but not those due while no scheduler ran', async () => {
    // bench/scale `slow`: a full process's slots took only their own second's events, the backlog's
    // line never found its tenth of the places free, and a team's leftovers of an earlier second
    // waited 61 s for the slow load to end. bench/scale `catch-up`: crowded slots that took a
    // downtime's backlog held what fell due behind it.
    const start = Date.now() - 500;
    const servedSince = new Date(start - 10_000);
    const downtime = due({ teamId: 'other', scheduledAt: new Date(servedSince.getTime() - 1000) });
    const leftover = due({ teamId: 'other', scheduledAt: new Date(start - 2000) });
    const own = Array.from({ length: 4 }, (_, n) =>
      due({ teamId: 'busy', scheduledAt: new Date(start + n) }),
    );
    store.insert([downtime, leftover, ...own]);
    const crowded = vi.spyOn(store, 'claimBacklog');
    const { worker, close } = makeWorker(store, servedSince, { shares: new Shares(2, 10) });
    expect(
      await worker.deliverSlot(new Date(start), new Date(start + 1000), new AbortController().signal),
    ).toBe(true);
    await close();
    expect(receiver.hits.map((hit) => hit.headers['webhook-id']).sort()).toEqual(
      [leftover, ...own].map((e) => e.id).sort(),
    );
    expect(store.get(downtime.id)).toMatchObject({ status: 'pending' });
    expect(crowded).toHaveBeenCalledWith(expect.objectContaining({ from: servedSince }));
  });

  it('gives a missed event’s place to the next at once, before its outcome is written', async () => {
    // bench/scale `catch-up`: a stop's missed events held their team's places until written.
    const servedSince = new Date();
    const missed = Array.from({ length: 3 }, (_, n) =>
      due({ scheduledAt: new Date(Date.now() - 2 * HOUR + n) }),
    );
    const late = due({ scheduledAt: new Date(Date.now() - 60_000) });
    store.insert([...missed, late]);
    const writer = new OutcomeWriter(store, logger, { maxBatch: 10, maxDelayMs: 2000 });
    const { worker, close } = makeWorker(store, servedSince, { shares: new Shares(1, 10), writer });
    const stopping = new AbortController();
    const now = Date.now();
    const delivering = worker.deliverSlot(new Date(now - 3 * HOUR), new Date(now + HOUR), stopping.signal);
    await vi.waitFor(() => expect(receiver.hits).toHaveLength(1), { timeout: 1500 });
    // The late event was called while the missed ones' outcomes still waited for the writer.
    expect(missed.map((event) => store.get(event.id)?.status)).toEqual([
      'processing',
      'processing',
      'processing',
    ]);
    await vi.waitFor(() => expect(store.get(late.id)?.status).toBe('success'), { timeout: 5000 });
    stopping.abort();
    await delivering;
    await close();
    expect(missed.map((event) => store.get(event.id)?.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('gives back an attempt it may no longer start as soon as the database takes it, not a lease later', async () => {
    const event = due();
    store.insert([event]);
    // The liveness lock was lost (the database went away) between the claim and the call's start.
    let holding = false;
    const liveness = {
      current: () => ({ id: 1, epoch: 1 }),
      holds: () => holding,
      servedSince: () => new Date(0),
    };
    const release = vi
      .spyOn(store, 'release')
      .mockRejectedValueOnce(new Error('the database system is shutting down'));
    const { worker, close } = makeWorker(store, new Date(0), { liveness });
    await deliverFor(worker, 50);
    expect(store.get(event.id)?.status).toBe('processing');
    await vi.waitFor(
      () => expect(store.get(event.id)).toMatchObject({ status: 'pending', leaseToken: null }),
      {
        timeout: 5000,
      },
    );
    expect(release).toHaveBeenCalledTimes(2);
    expect(receiver.hits).toHaveLength(0);

    holding = true;
    await deliverFor(worker, 50);
    await close();
    expect(store.get(event.id)).toMatchObject({ status: 'success', claimCount: 2 });
    expect(receiver.hits).toHaveLength(1);
  });

  it(`hands back expired leases, and fails an attempt whose lease expired ${MAX_CLAIMS} times`, async () => {
    const lease = { status: 'processing', leaseOwner: 9, leaseExpiresAt: new Date(Date.now() - 1) } as const;
    const again = due({ ...lease, leaseToken: randomUUID(), claimCount: MAX_CLAIMS - 1 });
    const givenUp = due({ ...lease, leaseToken: randomUUID(), claimCount: MAX_CLAIMS });
    store.insert([again, givenUp]);
    const { worker, close } = makeWorker(store);
    expect(await worker.recoverExpiredLeases()).toBe(2);
    await close();
    expect(store.get(again.id)).toMatchObject({
      status: 'pending',
      leaseToken: null,
      claimCount: MAX_CLAIMS - 1,
    });
    expect(store.get(givenUp.id)).toMatchObject({ status: 'failed', leaseToken: null });
    expect(store.get(givenUp.id)?.responseError).toMatch(/interrupted 3 times/);
    expect(receiver.hits).toHaveLength(0);
  });
});
