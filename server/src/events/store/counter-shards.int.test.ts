import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, makeCron, makeTeam } from '../../../test/factories.js';
import { type TestApp, startTestApp } from '../../../test/harness.js';
import { countedDuring } from '../../../test/index-reads.js';
import { eventually } from '../../../test/receiver.js';
import { foldCounterShards } from './counter-shards.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

// Beyond Linux's largest process id: no session ever has it.
const ENDED = 2_147_483_000;

const rowsOf = (table: string, key: string, id: string) =>
  app.sql<{ shard: number; n: number }>(
    `select shard, n::int from ${table} where ${key} = $1 order by shard`,
    [id],
  );

describe('foldCounterShards', () => {
  it('folds the rows of ended sessions into shard 0 keeping the sums, keeps live ones, drops those of deleted owners', async () => {
    const team = await app.createTeam();
    for (let i = 0; i < 3; i++)
      await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() });
    const live = new pg.Client(app.db.connection);
    await live.connect();
    try {
      const [{ pid } = { pid: 0 }] = (await live.query<{ pid: number }>('select pg_backend_pid() as pid'))
        .rows;
      // A cron and a team deleted while another session held their counter rows: the rows stay.
      const cron = await makeCron(app.orm.em.fork(), team.teamId);
      const goneTeam = await makeTeam(app.orm.em.fork(), 'gone');
      await app.sql('delete from crons where id = $1', [cron.id]);
      await app.sql('delete from teams where id = $1', [goneTeam]);
      await app.sql(
        `insert into event_totals (scope, shard, n) values ($1, $2, 5), ($1, $3, 7), ($4, $2, 9)`,
        [team.teamId, ENDED, pid, cron.id],
      );
      await app.sql(
        `insert into pending_event_counts (team_id, shard, n, bytes) values ($1, $2, 2, 50), ($3, $2, 1, 1)`,
        [team.teamId, ENDED, goneTeam],
      );
      // event_totals is kept for processes of the previous release (the lists read event_counts).
      const total = async () =>
        (
          await app.sql<{ n: number }>('select sum(n)::int as n from event_totals where scope = $1', [
            team.teamId,
          ])
        )[0]?.n;
      const pending = () =>
        app.sql<{ n: number; bytes: number }>(
          'select sum(n)::int as n, sum(bytes)::int as bytes from pending_event_counts where team_id = $1',
          [team.teamId],
        );
      const before = { total: await total(), pending: await pending() };
      expect(before.total).toBe(3 + 5 + 7);

      await foldCounterShards(app.orm.em.fork());

      expect({ total: await total(), pending: await pending() }).toEqual(before);
      // The app's own sessions are live too: their rows stay where they are.
      const teamRows = await rowsOf('event_totals', 'scope', team.teamId);
      expect(teamRows.find((row) => row.shard === ENDED)).toBeUndefined();
      expect(teamRows.find((row) => row.shard === 0)?.n).toBe(5);
      expect(teamRows.find((row) => row.shard === pid)?.n).toBe(7);
      const pendingRows = await rowsOf('pending_event_counts', 'team_id', team.teamId);
      expect(pendingRows.find((row) => row.shard === ENDED)).toBeUndefined();
      expect(pendingRows.find((row) => row.shard === 0)?.n).toBe(2);
      expect(await rowsOf('event_totals', 'scope', cron.id)).toEqual([]);
      expect(await rowsOf('pending_event_counts', 'team_id', goneTeam)).toEqual([]);
    } finally {
      await live.end();
    }
  });

  it("reads the ended sessions' rows, not the live ones'", async () => {
    const team = await app.createTeam();
    const live = new pg.Client(app.db.connection);
    await live.connect();
    try {
      const [{ pid } = { pid: 0 }] = (await live.query<{ pid: number }>('select pg_backend_pid() as pid'))
        .rows;
      // A live session's row per counter it wrote: a scheduler's connection after 20,000 crons ran.
      await app.sql(
        `insert into event_totals (scope, shard, n) select gen_random_uuid(), $1, 1 from generate_series(1, 20000)`,
        [pid],
      );
      await app.sql('insert into event_totals (scope, shard, n) values ($1, $2, 4)', [team.teamId, ENDED]);
      // An owner deleted whose rows are gone, not yet forgotten: the rows of such owners are dropped
      // in the same run.
      await app.sql('insert into counter_owners_gone (id, gone_at) values (gen_random_uuid(), now())');
      await app.sql('analyze event_totals');
      const pages = `select pg_stat_get_xact_blocks_fetched('event_totals'::regclass)
          + (select sum(pg_stat_get_xact_blocks_fetched(indexrelid)) from pg_index
             where indrelid = 'event_totals'::regclass) as pages`;
      const { grew } = await countedDuring(app.orm, pages, (tx) => foldCounterShards(tx));
      const [table] = await app.sql<{ pages: number }>(
        `select pg_relation_size('event_totals') / current_setting('block_size')::int as pages`,
      );

      // Read whole, the table is ~470 pages (524 fetched); a probe per shard and the ended row, ~45.
      expect(grew.pages).toBeLessThan((table?.pages ?? 0) / 5);
      expect(await rowsOf('event_totals', 'scope', team.teamId)).toContainEqual({ shard: 0, n: 4 });
      const [kept] = await app.sql<{ n: number }>(
        'select count(*)::int as n from event_totals where shard = $1',
        [pid],
      );
      expect(kept?.n).toBe(20_000);
    } finally {
      await live.end();
    }
  });

  it('forgets a deleted owner once nothing of it is left and no transaction older than its delete is open', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const noted = () => app.sql('select id from counter_owners_gone where id = $1', [cron.id]);
    const older = new pg.Client(app.db.connection);
    // Another database's transaction, older too, cannot write here: it holds nothing.
    const elsewhere = new pg.Client({ ...app.db.connection, database: 'postgres' });
    await older.connect();
    await elsewhere.connect();
    try {
      await older.query('begin');
      await older.query('select 1');
      await elsewhere.query('begin');
      await elsewhere.query('select 1');
      await app.sql('delete from crons where id = $1', [cron.id]);
      expect(await noted()).toHaveLength(1);
      await foldCounterShards(app.orm.em.fork());
      expect(await noted()).toHaveLength(1);
      await older.query('commit');
      // Other transactions of this database that began before the delete hold it too, until they end.
      await eventually(
        async () => {
          await foldCounterShards(app.orm.em.fork());
          return noted();
        },
        (rows) => rows.length === 0,
      );
    } finally {
      await older.end();
      await elsewhere.end();
    }
  });
});
