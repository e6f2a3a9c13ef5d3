import { afterEach, beforeEach, describe } from 'vitest';
import { claimSemantics } from './claim-semantics.js';
import { cronSemantics } from './cron-semantics.js';
import { leaseSemantics } from './lease-semantics.js';
import { outcomeSemantics } from './outcome-semantics.js';
import type { StoreUnderTest } from './store-under-test.js';

/**
 * The delivery semantics every `EventStore` keeps — claims, shares, leases and their fence, outcomes,
 * retries, recovery of expired leases, missed events, cron occurrences — as one vitest suite, run against each
 * implementation (like Agenda's backends). `makeStore` gives a fresh, empty store for each test.
 */
export function describeDeliverySemantics(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`delivery semantics: ${name}`, () => {
    let store: StoreUnderTest | undefined;
    const current = () => {
      if (!store) throw new Error('no store under test');
      return store;
    };
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });
    describe('claims', () => claimSemantics(current));
    describe('outcomes', () => outcomeSemantics(current));
    describe('leases', () => leaseSemantics(current));
    describe('cron occurrences', () => cronSemantics(current));
  });
}
