// The `./testing` entry of the package: what other packages' tests may use. Not part of the main barrel.
export { describeDeliverySemantics } from './delivery-semantics.js';
export { eventually } from './eventually.js';
export {
  MemoryEventStore,
  type MemoryEvent,
  type MemoryEventStoreOptions,
  type NewEvent,
} from './memory-event-store.js';
export type { MemoryCron } from './memory-crons.js';
export { OPEN_SHARES } from './store-under-test.js';
export type { SeedCron, SeedEvent, StoreUnderTest, StoredEvent } from './store-under-test.js';
