import { randomUUID } from 'node:crypto';
import { webhookOrigin } from '@webhook-scheduler/scheduler';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/receiver.js';
import { unmigratedDatabase } from '../../../test/unmigrated-database.js';
import { ORIGIN_BATCH } from './Migration20261126000000_event_origins.js';

const { orm, sql, addTeam, connection } = unmigratedDatabase('wst_origins', 4);
let team: string;

beforeAll(async () => {
  await orm().migrator.up({ to: 'Migration20261125030000_event_queue' });
  team = await addTeam();
});

/** URLs as events stored them before, and what the regular expression (or nothing) made of them. */
const STORED: [url: string, before: string | null][] = [
  ['http://127.0.0.1:08080/a', '127.0.0.1:08080'],
  ['http://a.example\\@b.example/', 'b.example'],
  ['https://Example.COM.:443/hook', 'example.com.'],
  ['https://bücher.example/', 'bücher.example'],
  ['http://[0:0:0:0:0:0:0:1]:3000/', '[0:0:0:0:0:0:0:1]:3000'],
  ['http://0x7f.1:3000/', null],
];

/** `count` events in id order, cycling through the stored URLs; one in ten finished, the rest pending (queued). */
async function seed(count: number): Promise<{ id: string; status: string }[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const [url, before] = STORED[i % STORED.length] ?? ['', null];
    return { id: randomUUID(), url, before, status: i % 10 === 0 ? 'success' : 'pending' };
  }).sort((a, b) => a.id.localeCompare(b.id));
  await sql(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select r.id, $2, 0, now() + interval '1 hour', r.status, r.url, r.before, 'POST', now(), now()
     from jsonb_to_recordset($1::jsonb) as r(id uuid, url text, before text, status text)`,
    [JSON.stringify(rows), team],
  );
  return rows;
}

describe('the event origins migration', () => {
  it('stores the origin of every pending event and its queue row, in batches that each commit, and drops the SQL twin', async () => {
    const seeded = await seed(4 * ORIGIN_BATCH + 7);
    const ids = seeded.filter((row) => row.status === 'pending').map((row) => row.id);
    const before = await sql<{ destination: string }>('select destination from event_queue limit 1');
    expect(before[0]?.destination).not.toMatch(/^https?:\/\//);
    // The last event stays locked: the migration waits for it in its last batch, after the first
    // batches committed.
    const locker = new pg.Client(connection);
    await locker.connect();
    let migrated: Promise<unknown> | undefined;
    try {
      await locker.query('begin');
      await locker.query('select 1 from events where id = $1 for update', [ids.at(-1)]);
      migrated = orm().migrator.up();
      await eventually(
        () => sql<{ n: string }>(`select count(*) as n from events where destination like 'http%'`),
        ([row]) => Number(row?.n) >= ORIGIN_BATCH,
      );
      const [last] = await sql<{ destination: string | null }>(
        'select destination from events where id = $1',
        [ids.at(-1)],
      );
      expect(last?.destination ?? '').not.toMatch(/^https?:\/\//);
    } finally {
      await locker.query('commit');
      await locker.end();
      await migrated;
    }

    const events = await sql<{ webhook_url: string; destination: string; queued: string | null }>(
      `select e.webhook_url, e.destination, q.destination as queued
       from events e join event_queue q on q.event_id = e.id`,
    );
    expect(events).toHaveLength(ids.length);
    for (const row of events) {
      expect(row.destination).toBe(webhookOrigin(row.webhook_url));
      expect(row.queued ?? row.destination).toBe(row.destination);
    }
    expect([...new Set(events.map((row) => row.destination))].sort()).toEqual([
      'http://127.0.0.1:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'http://a.example',
      'https://example.com',
      'https://xn--bcher-kva.example',
    ]);
    // Finished events keep what they stored.
    const finished = await sql<{ destination: string | null }>(
      `select destination from events where status = 'success'`,
    );
    expect(finished).toHaveLength(seeded.length - ids.length);
    expect(finished.filter((row) => /^https?:\/\//.test(row.destination ?? ''))).toEqual([]);
    const [twin] = await sql<{ n: string }>(
      "select count(*) as n from pg_proc where proname = 'webhook_destination'",
    );
    expect(Number(twin?.n)).toBe(0);
  });

  it('queues a new pending event with the origin its insert stores', async () => {
    const id = randomUUID();
    await sql(
      `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
       values ($1, $2, 0, now(), 'pending', 'https://example.com:443/x', 'https://example.com', 'POST', now(), now())`,
      [id, team],
    );
    const [queued] = await sql<{ destination: string }>(
      'select destination from event_queue where event_id = $1',
      [id],
    );
    expect(queued?.destination).toBe('https://example.com');
  });
});
