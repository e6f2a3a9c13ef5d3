import { Timers } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp, startTestScheduler } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;
let second: { stop(): Promise<void> };

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 10_000 } });
  second = await startTestScheduler(app.db, app.orm, new Timers({ shards: 2 }), {
    webhookTimeoutMs: 10_000,
  });
  team = await app.createTeam();
});
afterAll(async () => {
  await second.stop();
  await app.close();
  await receiver.close();
});

describe('two schedulers on one database', () => {
  it('deliver every event exactly once', async () => {
    const count = 600;
    // Far enough ahead to create them all first, even on a busy machine.
    const start = Date.now() + 3000 + count * 10;
    const ids: string[] = [];
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          app.request('POST', '/api/v1/events', {
            key: team.key,
            body: {
              webhook_url: `${receiver.url}/shared`,
              scheduled_at: new Date(start + ((i + j) % 1000)).toISOString(),
            },
          }),
        ),
      );
      for (const response of batch) expect(response.status, JSON.stringify(response.body)).toBe(201);
      ids.push(...batch.map((response) => response.body.data.id as string));
    }
    await receiver.waitFor(count, (r) => r.path === '/shared', 20_000);
    const ended = `select count(*) as n from events where status in ('success', 'failed') and team_id = $1`;
    await eventually(
      () => app.sql<{ n: string }>(ended, [team.teamId]),
      (rows) => Number(rows[0]!.n) === count,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const delivered = receiver.requests
      .filter((r) => r.path === '/shared')
      .map((r) => r.headers['webhook-id']);
    expect(delivered).toHaveLength(count);
    expect(new Set(delivered)).toEqual(new Set(ids));
    const claimedTwice = await app.sql(`select id from events where team_id = $1 and claim_count <> 1`, [
      team.teamId,
    ]);
    expect(claimedTwice).toEqual([]);
  });
});
