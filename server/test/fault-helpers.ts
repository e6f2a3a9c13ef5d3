import { shownStatus } from '../src/events/store/event-row.js';
import type { TestApp, TestTeam } from './harness.js';
import type { Receiver } from './receiver.js';

/** Creates `count` events for `url`, all due at one instant, far enough ahead to create them all first. */
export async function scheduleMany(
  app: TestApp,
  team: TestTeam,
  count: number,
  url: string,
  due = new Date(Date.now() + 2000 + count * 5),
): Promise<string[]> {
  // One batch per 1,000 events: the first is stored a moment after it is sent, however loaded the machine.
  const at = due.toISOString();
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1000) {
    const events = Array.from({ length: Math.min(1000, count - i) }, () => ({
      webhook_url: url,
      scheduled_at: at,
    }));
    const response = await app.request('POST', '/api/v1/events/batch', { key: team.key, body: { events } });
    if (response.status !== 201) throw new Error(`create answered ${response.status}: ${response.text}`);
    ids.push(...(response.body.data as { id: string }[]).map((event) => event.id));
  }
  return ids;
}

/** How many of `ids` are in each status. */
export async function statuses(app: TestApp, ids: string[]): Promise<Record<string, number>> {
  const rows = await app.sql<{ status: string; n: string }>(
    `select ${shownStatus('events')} as status, count(*) as n from events where id = any($1) group by 1`,
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

/** The `webhook-id` of every request the receiver got on `path`, repeats included. */
export const deliveredIds = (receiver: Receiver, path: string): string[] =>
  receiver.requests
    .filter((request) => request.path === path)
    .map((request) => String(request.headers['webhook-id']));
