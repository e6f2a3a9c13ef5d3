import { describe, expect, it } from 'vitest';
import { SLOT_JOB } from './slot-jobs.js';
import { type SqlExecutor, Timers, WRITER_HORIZON_MS } from './timers.js';

const at = (ms: number) => new Date(ms);
const second = (ms: number) => Math.floor(ms / 1000);

/** Records the statements a writer's transaction would run. */
function recorder(): SqlExecutor & { inserts: unknown[][] } {
  const inserts: unknown[][] = [];
  return {
    inserts,
    query: (sql: string, params: unknown[]) => {
      if (sql.includes(SLOT_JOB)) inserts.push(params);
      return Promise.resolve();
    },
  };
}

/** The seconds the recorded statements gave timer jobs, once each. */
const slotsOf = (inserts: unknown[][]) => [
  ...new Set(
    inserts.flatMap(([data]) => (data as string[]).map((job) => (JSON.parse(job) as { slot: number }).slot)),
  ),
];

describe('Timers', () => {
  const now = at(1_800_000_000_000);

  it('gives timer jobs to the seconds within the writers’ horizon and leaves later ones to the horizon job', async () => {
    const timers = new Timers({ shards: 2 });
    const executor = recorder();
    const soon = now.getTime() + 60_000;
    const edge = now.getTime() + WRITER_HORIZON_MS - 1000;
    const later = now.getTime() + WRITER_HORIZON_MS + 1000;
    expect(timers.covers([at(later)], now)).toBe(true);
    expect(timers.covers([at(soon), at(later)], now)).toBe(false);
    await timers.schedule(executor, [at(soon), at(edge), at(later), at(soon + 10)], now);
    expect(slotsOf(executor.inserts)).toEqual([second(soon), second(edge)]);
  });

  it('writes one job per shard of each second once, and again for a second not trusted to be ahead', async () => {
    const timers = new Timers({ shards: 2 });
    const executor = recorder();
    const ahead = now.getTime() + 60_000;
    await timers.schedule(executor, [at(ahead)], now);
    expect(executor.inserts).toHaveLength(1);
    expect((executor.inserts[0]?.[0] as string[]).length).toBe(2);
    expect(timers.covers([at(ahead)], now)).toBe(true);
    await timers.schedule(executor, [at(ahead)], now);
    expect(executor.inserts).toHaveLength(1);
    const imminent = now.getTime() + 500;
    await timers.schedule(executor, [at(imminent)], now);
    expect(timers.covers([at(imminent)], now)).toBe(false);
    expect(slotsOf(executor.inserts.slice(1))).toEqual([second(imminent)]);
  });
});
