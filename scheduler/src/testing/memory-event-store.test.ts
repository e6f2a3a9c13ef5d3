import { describeDeliverySemantics } from './delivery-semantics.js';
import { MemoryEventStore } from './memory-event-store.js';

const CRON = {
  timezone: null,
  webhookUrl: 'https://hooks.example/cron',
  method: 'POST',
  headers: null,
  payload: null,
  retryConfig: null,
  materializedUntil: null,
} as const;

describeDeliverySemantics('in memory', () => {
  let now = new Date('2026-11-23T10:00:00Z');
  const store = new MemoryEventStore({ now: () => now });
  return Promise.resolve({
    store,
    seed: (events) => {
      store.insert(events);
      return Promise.resolve();
    },
    seedCrons: (crons) => {
      for (const cron of crons) store.addCron({ ...CRON, ...cron });
      return Promise.resolve();
    },
    read: (id) => Promise.resolve(store.get(id)),
    now: () => now,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  });
});
