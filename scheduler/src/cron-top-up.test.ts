import { describe, expect, it } from 'vitest';
import { topUpCrons } from './cron-top-up.js';
import { MemoryEventStore } from './testing/memory-event-store.js';

const HORIZON_MS = 60_000;

function storeWithMinuteCron(materializedUntil: string) {
  let now = new Date(0);
  const store = new MemoryEventStore({ now: () => now });
  store.addCron({
    id: 'cron-1',
    teamId: 'team-1',
    cronExpression: '* * * * *',
    timezone: null,
    isActive: true,
    materializedUntil: new Date(materializedUntil),
    webhookUrl: 'https://hooks.example/cron',
    method: 'POST',
    headers: null,
    payload: null,
    retryConfig: null,
  });
  const occurrences = () =>
    store
      .all()
      .map((event) => event.scheduledAt.toISOString())
      .sort();
  return {
    at: async (iso: string) => {
      now = new Date(iso);
      await topUpCrons(store, HORIZON_MS);
      return occurrences();
    },
  };
}

describe('the reconcile’s cron top-up', () => {
  it('tops a cron on the minute up late in a minute, away from its own occurrences', async () => {
    const cron = storeWithMinuteCron('2026-11-27T12:02:00Z');
    expect(await cron.at('2026-11-27T12:00:00.500Z')).toEqual([]);
    expect(await cron.at('2026-11-27T12:00:53Z')).toEqual([]);
    expect(await cron.at('2026-11-27T12:00:55Z')).toEqual(['2026-11-27T12:03:00.000Z']);
    expect(await cron.at('2026-11-27T12:01:00.500Z')).toEqual(['2026-11-27T12:03:00.000Z']);
    expect(await cron.at('2026-11-27T12:01:55Z')).toEqual([
      '2026-11-27T12:03:00.000Z',
      '2026-11-27T12:04:00.000Z',
    ]);
  });

  it('tops a cron that ran out up at once, without back-filling the minute that passed', async () => {
    const cron = storeWithMinuteCron('2026-11-27T11:59:00Z');
    expect(await cron.at('2026-11-27T12:00:00.500Z')).toEqual([
      '2026-11-27T12:01:00.000Z',
      '2026-11-27T12:02:00.000Z',
    ]);
  });
});
