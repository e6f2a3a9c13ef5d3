// The delivery worker over the memory store, for its tests: a worker, a due event, a slot delivered.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { type MockInstance, vi } from 'vitest';
import { createSender } from '../delivery/send.js';
import { createDeliveryMetrics } from '../metrics.js';
import type { ClaimedAttempt } from '../ports.js';
import { Capacity } from '../worker/capacity.js';
import { DeliveryWorker, type DeliveryWorkerOptions, type Liveness } from '../worker/delivery-worker.js';
import { OutcomeWriter } from '../worker/outcome-writer.js';
import { Shares } from '../worker/shares.js';
import { Wakeup } from '../worker/wakeup.js';
import type { MemoryEventStore, NewEvent } from './memory-event-store.js';
import { type Receiver, startReceiver } from './receiver.js';

export const SECRET = 'whsec_c2VtYW50aWNzLXNlY3JldA==';
export const HOUR = 3_600_000;
export const logger = pino({ level: 'silent' });

/** This process holds its liveness lock, and schedulers have run since `servedSince`. */
const alive = (servedSince: Date): Liveness => ({
  current: () => ({ id: 1, epoch: 1 }),
  holds: () => true,
  servedSince: () => servedSince,
});

export function makeWorker(
  store: MemoryEventStore,
  servedSince = new Date(0),
  parts: {
    shares?: Shares;
    writer?: OutcomeWriter;
    capacity?: Capacity;
    backlog?: Wakeup;
    liveness?: Liveness;
    options?: Partial<DeliveryWorkerOptions>;
  } = {},
) {
  const sender = createSender({
    timeoutMs: 2000,
    allowPrivateTargets: true,
    allowedHosts: [],
    userAgent: 'test',
  });
  const worker = new DeliveryWorker({
    store,
    sender,
    liveness: parts.liveness ?? alive(servedSince),
    capacity: parts.capacity ?? new Capacity(10),
    shares: parts.shares ?? new Shares(10, 10),
    backlog: parts.backlog ?? new Wakeup(1000, 5),
    holdEnds: { holdBegan: () => {} },
    writer: parts.writer ?? new OutcomeWriter(store, logger, { maxBatch: 10, maxDelayMs: 1 }),
    metrics: createDeliveryMetrics(new Registry(), () => store.dueBacklog()),
    logger,
    options: {
      leaseMs: 10_000,
      timeoutMs: 2000,
      claimBatch: 10,
      pollMs: 10,
      claimAheadMs: 50,
      missedToleranceMs: HOUR,
      ...parts.options,
    },
  });
  return { worker, close: () => sender.close() };
}

/** Delivers the slot from an hour ago until `ms` from now. */
export function deliverFor(worker: DeliveryWorker, ms: number): Promise<boolean> {
  const now = Date.now();
  return worker.deliverSlot(new Date(now - HOUR), new Date(now + ms), new AbortController().signal);
}

/** Delivers a slot from an hour ago to an hour ahead until `done` passes. */
export async function deliverUntil(worker: DeliveryWorker, done: () => void): Promise<void> {
  const stopping = new AbortController();
  const now = Date.now();
  const delivering = worker.deliverSlot(new Date(now - HOUR), new Date(now + HOUR), stopping.signal);
  await vi.waitFor(done, { timeout: 20_000 });
  stopping.abort();
  await delivering;
}

/** An event to `${receiverUrl}/hook` of team `team`, due 10 ms ago. */
export function dueEvent(receiverUrl: string, overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    id: randomUUID(),
    teamId: 'team',
    scheduledAt: new Date(Date.now() - 10),
    webhookUrl: `${receiverUrl}/hook`,
    payload: { hello: 'world' },
    ...overrides,
  };
}

/** A receiver that answers calls to `/held` only once released, and any other at once. */
export async function holdingReceiver(): Promise<{ receiver: Receiver; release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const receiver = await startReceiver((request, response) => {
    if (request.url === '/held') void released.then(() => response.end('late'));
    else response.end('now');
  });
  return { receiver, release };
}

/** Every attempt the claims spied on returned. */
export async function claimedBy(
  claims: MockInstance<(...args: never[]) => Promise<ClaimedAttempt[]>>,
): Promise<ClaimedAttempt[]> {
  return (
    await Promise.all(claims.mock.results.map((result) => result.value as Promise<ClaimedAttempt[]>))
  ).flat();
}
