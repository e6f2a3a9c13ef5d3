import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { StoreUnderTest } from './store-under-test.js';

const MINUTE = 60_000;
const nextMinute = (at: Date) => (Math.floor(at.getTime() / MINUTE) + 1) * MINUTE;

/** Cron occurrences: what topping up materializes as pending events. */
export function cronSemantics(current: () => StoreUnderTest): void {
  it('materializes the occurrences of active crons within the horizon as pending events', async () => {
    const t = current();
    const teamId = randomUUID();
    await t.seedCrons([
      { id: randomUUID(), teamId, cronExpression: '* * * * *', isActive: true },
      { id: randomUUID(), teamId, cronExpression: '* * * * *', isActive: false },
    ]);
    const before = t.now();
    expect(await t.store.topUpCrons(5 * MINUTE, 10)).toBe(5);
    const after = t.now();
    const first = await t.store.nextDueAt(before, new Date(after.getTime() + 10 * MINUTE));
    // The first whole minute after the store's now, which lies between the two readings.
    expect([nextMinute(before), nextMinute(after)]).toContain(first?.getTime());
    // None is due, unless the minute turned meanwhile and the first fell due.
    const backlog = await t.store.dueBacklog();
    expect(backlog).toBeLessThanOrEqual(t.now().getTime() >= (first?.getTime() ?? 0) ? 1 : 0);
  });

  it('tops up at most `limit` crons at a time, and gives a cron never materialized at least one', async () => {
    const t = current();
    const teamId = randomUUID();
    await t.seedCrons([
      { id: randomUUID(), teamId, cronExpression: '0 0 1 1 *', isActive: true },
      { id: randomUUID(), teamId, cronExpression: '0 0 1 1 *', isActive: true },
    ]);
    expect(await t.store.topUpCrons(MINUTE, 1)).toBe(1);
    expect(await t.store.topUpCrons(MINUTE, 10)).toBe(1);
    expect(await t.store.topUpCrons(MINUTE, 10)).toBe(0);
  });
}
