import { randomUUID } from 'node:crypto';
import { QuotaExceededDetails } from '@webhook-scheduler/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bodies, expectBody } from '../../test/expect.js';
import { payloadOf } from '../../test/limits.js';
import { clusterFixture, query, runConcurrently, teamWithKeys } from '../../test/process-cluster.js';

// Two API processes and a scheduler on one database; a team a few events below its limits; many
// simultaneous creates, batches, replays and manual runs from several keys. The rows in the
// database never pass a limit, and every refusal is a clean 403 QUOTA_EXCEEDED.
const MAX_EVENTS = 40;
const MAX_BYTES = 4800;
const REQUESTS = 600;
const CONCURRENCY = 40;

const fixture = clusterFixture();

/** The team's own pending events and their bytes counted from the rows, and as the counters keep them. */
const PENDING = `select count(*)::int as events, coalesce(sum(request_bytes), 0)::int as bytes,
    (select coalesce(sum(n), 0)::int from pending_event_counts where team_id = $1) as counted_events,
    (select coalesce(sum(bytes), 0)::int from pending_event_counts where team_id = $1) as counted_bytes
  from events where team_id = $1 and status = 'pending' and (cron_id is null or triggered) and not alert`;

interface Pending {
  events: number;
  bytes: number;
  counted_events: number;
  counted_bytes: number;
}

describe('the pending quotas across processes', () => {
  it('are never passed by simultaneous creates, batches, replays and manual runs, and every refusal is a 403', async () => {
    const { db, receiver } = fixture;
    const team = await teamWithKeys(db, 4, { max_pending_events: MAX_EVENTS, max_pending_bytes: MAX_BYTES });
    const live = await fixture.start({
      env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
    });
    const send = (n: number, method: string, path: string, body?: unknown) =>
      live.request(n, method, path, { key: team.keys[n % team.keys.length] ?? '', body });
    const later = () => new Date(Date.now() + 3_600_000).toISOString();
    const event = (bytes: number, due = later()) => ({
      webhook_url: `${receiver.url}/hook`,
      scheduled_at: due,
      payload: payloadOf(bytes),
    });

    // Finished events to replay, an inactive cron to run by hand, then the team a few events below
    // its limits with events that wait.
    const finished = (
      await query<{ id: string }>(
        db,
        `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload,
                             created_at, updated_at)
         select gen_random_uuid(), $1, 0, now(), 'success', $2, 'POST', to_jsonb($3::text), now(), now()
         from generate_series(1, 4) returning id`,
        [team.teamId, `${receiver.url}/hook`, payloadOf(100).slice(1, -1)],
      )
    ).map((row) => row.id);
    const cron = expectBody(
      await send(0, 'POST', '/api/v1/crons', {
        webhook_url: `${receiver.url}/run`,
        cron_expression: '0 0 1 1 *',
        payload: payloadOf(200),
        is_active: false,
      }),
      201,
      bodies.cron,
    ).data;
    const waiting: string[] = [];
    for (let n = 0; n < MAX_EVENTS - 5; n++)
      waiting.push(
        expectBody(await send(n, 'POST', '/api/v1/events', event(120)), 201, bodies.event).data.id,
      );

    let watching = true;
    let worst = { events: 0, bytes: 0 };
    const watch = new pg.Client(db.connection);
    await watch.connect();
    const watcher = (async () => {
      while (watching) {
        const [seen] = (await watch.query<Pending>(PENDING, [team.teamId])).rows;
        if (!seen) continue;
        worst = { events: Math.max(worst.events, seen.events), bytes: Math.max(worst.bytes, seen.bytes) };
      }
    })();
    // Deletes and deliveries (of replays and runs, due now) keep freeing places for others to take.
    const created = (response: Awaited<ReturnType<typeof send>>) => {
      if (response.status !== 201) return response;
      const data: { id: string }[] = Array.isArray(response.body.data)
        ? response.body.data
        : [response.body.data];
      waiting.push(...data.map((row) => row.id));
      return response;
    };
    const operations = [
      (n: number) => send(n, 'POST', '/api/v1/events', event(50 + ((n * 37) % 350))).then(created),
      (n: number) =>
        send(n, 'POST', '/api/v1/events/batch', { events: [event(60), event(80), event(100)] }).then(created),
      (n: number) => send(n, 'POST', `/api/v1/events/${finished[n % finished.length]}/replay`),
      (n: number) => send(n, 'POST', `/api/v1/crons/${cron.id}/trigger`),
      (n: number) => send(n, 'DELETE', `/api/v1/events/${waiting.shift() ?? randomUUID()}`),
    ];
    const responses = await runConcurrently(REQUESTS, CONCURRENCY, (n) =>
      (operations[n % operations.length] ?? operations[0])!(n),
    );
    watching = false;
    await watcher.finally(() => watch.end());

    const statuses = responses
      .filter((_, n) => n % operations.length !== 4)
      .map((response) => response.status);
    expect(statuses.filter((status) => status !== 201 && status !== 403)).toEqual([]);
    // A delete may come after the event was deleted by another: 404.
    const deletes = responses
      .filter((_, n) => n % operations.length === 4)
      .map((response) => response.status);
    expect(deletes.filter((status) => status !== 200 && status !== 404)).toEqual([]);
    const refused = responses.filter((response) => response.status === 403);
    for (const response of refused) {
      expect(response.body.error.code).toBe('QUOTA_EXCEEDED');
      const details = QuotaExceededDetails.strict().parse(response.body.error.details);
      expect(details.limit).toBe(details.quota === 'pending_bytes' ? MAX_BYTES : MAX_EVENTS);
      expect(details.current).toBeLessThanOrEqual(details.limit);
    }
    // Both quotas were reached, and places freed by deletes and deliveries were taken again.
    expect(new Set(refused.map((response) => response.body.error.details.quota))).toEqual(
      new Set(['pending_events', 'pending_bytes']),
    );
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(20);
    const usage = `worst seen ${JSON.stringify(worst)}`;
    expect(worst.events, usage).toBeLessThanOrEqual(MAX_EVENTS);
    expect(worst.bytes, usage).toBeLessThanOrEqual(MAX_BYTES);
    // The counters the check reads agree with the rows (one snapshot).
    const [now] = await query<Pending>(db, PENDING, [team.teamId]);
    expect(now && { events: now.counted_events, bytes: now.counted_bytes }).toEqual(
      now && { events: now.events, bytes: now.bytes },
    );
  }, 180_000);
});
