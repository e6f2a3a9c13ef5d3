import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../ports.js';
import { OutcomeWriter } from './outcome-writer.js';

const logger = pino({ level: 'silent' });
const FAR = () => performance.now() + 60_000;

const record = (id: number) => ({ id: String(id) }) as unknown as AttemptRecord;

/** A store whose writes finish only when the test lets them, and that remembers each batch. */
function gatedStore() {
  const batches: string[][] = [];
  const gates: (() => void)[] = [];
  let failures = 0;
  return {
    batches,
    failNext(times: number) {
      failures = times;
    },
    /** Lets the oldest write in progress finish. */
    open() {
      gates.shift()?.();
    },
    async waitForWrites(count: number) {
      while (batches.length < count) await new Promise((resolve) => setTimeout(resolve, 1));
    },
    store: {
      record: async (records: AttemptRecord[]) => {
        batches.push(records.map((item) => item.id));
        await new Promise<void>((resolve) => gates.push(resolve));
        if (failures > 0) {
          failures--;
          throw new Error('database unreachable');
        }
        return records.map((item) => item.id);
      },
    },
  };
}

describe('OutcomeWriter', () => {
  it('gathers for the delay after a write as well, not only after an idle spell', async () => {
    // bench/steady-rate at 500/s: what arrived during each ~5 ms write was written at once after it,
    // 2.75 outcomes a batch, whatever the delay.
    const db = gatedStore();
    let wanted = true;
    const writer = new OutcomeWriter(db.store, logger, {
      maxBatch: 100,
      maxDelayMs: 60_000,
      wantedDelayMs: 1,
      placesWanted: () => wanted,
    });
    const first = writer.add(record(0), FAR());
    await db.waitForWrites(1);
    wanted = false;
    const during = [writer.add(record(1), FAR()), writer.add(record(2), FAR())];
    db.open();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.batches).toEqual([['0']]);
    const flushed = writer.flush();
    await db.waitForWrites(2);
    db.open();
    await Promise.all([...during, flushed]);
    expect(db.batches).toEqual([['0'], ['1', '2']]);
  });

  it('writes a lone outcome after the delay, in a batch of its own', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 100, maxDelayMs: 5 });
    const written = writer.add(record(1), FAR());
    await db.waitForWrites(1);
    db.open();
    await written;
    expect(db.batches).toEqual([['1']]);
  });

  it('writes a full batch at once, without waiting for the delay', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 3, maxDelayMs: 60_000 });
    const written = [1, 2, 3].map((id) => writer.add(record(id), FAR()));
    await db.waitForWrites(1);
    db.open();
    await Promise.all(written);
    expect(db.batches).toEqual([['1', '2', '3']]);
  });

  it('gathers what arrives during a write into the next batch (one write at a time)', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 100, maxDelayMs: 1 });
    const first = writer.add(record(0), FAR());
    await db.waitForWrites(1);
    const during: Promise<void>[] = [];
    for (let i = 1; i <= 30; i++) {
      during.push(writer.add(record(i), FAR()));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(db.batches).toHaveLength(1);
    db.open();
    await first;
    await db.waitForWrites(2);
    db.open();
    await Promise.all(during);
    expect(db.batches[1]).toHaveLength(30);
  });

  it('splits what gathered during a write into batches of at most maxBatch', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 10, maxDelayMs: 1 });
    const all = [writer.add(record(0), FAR())];
    await db.waitForWrites(1);
    for (let i = 1; i <= 25; i++) all.push(writer.add(record(i), FAR()));
    for (let write = 1; write <= 4; write++) {
      await db.waitForWrites(write);
      db.open();
    }
    await Promise.all(all);
    expect(db.batches.map((batch) => batch.length)).toEqual([1, 10, 10, 5]);
  });

  it('retries a failed write while the leases hold, and drops only the outcomes past theirs', async () => {
    const db = gatedStore();
    db.failNext(1);
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 100, maxDelayMs: 1 });
    const expiring = writer.add(record(1), performance.now() + 10);
    const holding = writer.add(record(2), FAR());
    await db.waitForWrites(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    db.open();
    await expiring;
    await db.waitForWrites(2);
    db.open();
    await holding;
    expect(db.batches).toEqual([['1', '2'], ['2']]);
  });

  it('times each batch written and counts its outcomes, a failed write not', async () => {
    const db = gatedStore();
    db.failNext(1);
    const wrote: { ms: number; outcomes: number }[] = [];
    const writer = new OutcomeWriter(
      db.store,
      logger,
      { maxBatch: 2, maxDelayMs: 1 },
      {
        wrote: (ms, outcomes) => wrote.push({ ms, outcomes }),
      },
    );
    const all = [1, 2, 3].map((id) => writer.add(record(id), FAR()));
    for (let write = 1; write <= 3; write++) {
      await db.waitForWrites(write);
      if (write === 2) await new Promise((resolve) => setTimeout(resolve, 20));
      db.open();
    }
    await Promise.all(all);
    expect(db.batches).toEqual([['1', '2'], ['1', '2'], ['3']]);
    expect(wrote.map(({ outcomes }) => outcomes)).toEqual([2, 1]);
    expect(wrote[0]!.ms).toBeGreaterThanOrEqual(15);
  });

  it('flush writes what is queued without waiting for the delay', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, { maxBatch: 100, maxDelayMs: 60_000 });
    void writer.add(record(1), FAR());
    const flushed = writer.flush();
    await db.waitForWrites(1);
    db.open();
    await flushed;
    expect(db.batches).toEqual([['1']]);
  });

  it('waits the shorter delay while a claim wants the places outcomes hold', async () => {
    const db = gatedStore();
    const writer = new OutcomeWriter(db.store, logger, {
      maxBatch: 100,
      maxDelayMs: 60_000,
      wantedDelayMs: 1,
      placesWanted: () => true,
    });
    const written = writer.add(record(1), FAR());
    await db.waitForWrites(1);
    db.open();
    await written;
    expect(db.batches).toEqual([['1']]);
  });

  it('hurry shortens the wait of what is queued once a claim wants places', async () => {
    const db = gatedStore();
    let wanted = false;
    const writer = new OutcomeWriter(db.store, logger, {
      maxBatch: 100,
      maxDelayMs: 60_000,
      wantedDelayMs: 1,
      placesWanted: () => wanted,
    });
    const written = [writer.add(record(1), FAR()), writer.add(record(2), FAR())];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.batches).toEqual([]);
    wanted = true;
    writer.hurry();
    await db.waitForWrites(1);
    db.open();
    await Promise.all(written);
    expect(db.batches).toEqual([['1', '2']]);
  });
});
