import { Timers, newEventId } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { insertPendingEvent } from '../events/store/pending-events.js';

// An event written to fall due within Timers' WAKE_WITHIN_MS wakes the schedulers through a
// notification at its commit. Every poll here is ten minutes away (Agenda's, the slots' and the
// backlog's tick), so only that wake delivers such an event within the test's time.

const TEN_MINUTES = 600_000;
let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({
    scheduler: { tuning: { processEveryMs: TEN_MINUTES, pollMs: TEN_MINUTES, backlogEveryMs: TEN_MINUTES } },
  });
  team = await app.createTeam('due-soon');
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

/** Writes an event due 50 ms after the write, as every writer does (`Timers.schedule`). */
async function writeDueSoon(path: string): Promise<void> {
  const now = new Date();
  await insertPendingEvent(
    app.orm.em.fork(),
    new Timers({ shards: 1 }),
    {
      id: newEventId(),
      teamId: team.teamId,
      cronId: null,
      retryOf: null,
      attempt: 0,
      scheduledAt: new Date(now.getTime() + 50),
      webhookUrl: `${receiver.url}${path}`,
      method: 'POST',
      headers: null,
      payload: { due: 'soon' },
      retryConfig: null,
      timeoutMs: null,
    },
    now,
  );
}

/** The backend of the scheduler's listening session once it has run its `listen`, else undefined. */
const listener = async (): Promise<number | undefined> => {
  const [row] = await app.sql<{ pid: number }>(
    `select pid from pg_stat_activity
     where application_name = 'webhook-scheduler-due-soon' and datname = current_database()
       and state = 'idle' and query like 'listen %'`,
  );
  return row?.pid;
};

describe('an event written to fall due almost at once', () => {
  it('is delivered without waiting for a poll', { timeout: 60_000 }, async () => {
    await eventually(listener, (pid) => pid !== undefined);
    await writeDueSoon('/soon');
    await receiver.waitFor(1, (request) => request.path === '/soon', 30_000);
  });

  it('is again once the listening session was lost and came back', { timeout: 60_000 }, async () => {
    const lost = await eventually(listener, (pid) => pid !== undefined);
    await app.sql('select pg_terminate_backend($1)', [lost]);
    await eventually(listener, (pid) => pid !== undefined && pid !== lost, 30_000);
    await writeDueSoon('/soon-again');
    await receiver.waitFor(1, (request) => request.path === '/soon-again', 30_000);
  });
});
