import { describe, expect, it } from 'vitest';
import { unmigratedDatabase } from '../../../test/unmigrated-database.js';
import { foldEventCounts } from './event-counts.js';

const { orm, sql, addTeam } = unmigratedDatabase('wst_counts', 8);

/** Inserts `count` events of the team straight into the table (the triggers count them). */
async function addEvents(team: string, count: number, status: string): Promise<void> {
  await sql(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, now() + g * interval '1 second', $2, 'https://hooks.example/in',
            'https://hooks.example', 'POST', now(), now()
     from generate_series(1, $3::int) g`,
    [team, status, count],
  );
}

/** The appended counts and the rows, per status, for one team. */
async function compare(team: string) {
  const counted = await sql<{ status: string; n: string }>(
    'select status, sum(n) as n from event_counts where scope = $1 group by status having sum(n) <> 0 order by status',
    [team],
  );
  const actual = await sql<{ status: string; n: string }>(
    'select status, count(*) as n from events where team_id = $1 group by status order by status',
    [team],
  );
  return {
    counted: counted.map((r) => [r.status, Number(r.n)]),
    actual: actual.map((r) => [r.status, Number(r.n)]),
  };
}

describe('event counts', () => {
  it('counts the existing events when the migration adds them, then every insert, status change and delete', async () => {
    await orm().migrator.up({ to: 'Migration20261126010000_status_schedule_index' });
    const team = await addTeam();
    await addEvents(team, 30, 'success');
    await addEvents(team, 7, 'failed');
    await orm().migrator.up();
    expect((await compare(team)).counted).toEqual([
      ['failed', 7],
      ['success', 30],
    ]);

    await addEvents(team, 5, 'pending');
    await sql(
      `update events set status = 'failed' where id in (select id from events where team_id = $1 and status = 'pending' limit 2)`,
      [team],
    );
    await sql(`update events set updated_at = now() where team_id = $1`, [team]);
    await sql(
      `delete from events where id in (select id from events where team_id = $1 and status = 'success' limit 4)`,
      [team],
    );
    const { counted, actual } = await compare(team);
    expect(counted).toEqual(actual);
    expect(counted).toEqual([
      ['failed', 9],
      ['pending', 3],
      ['success', 26],
    ]);
  });

  it('keeps the counts exact while writes and folds run at once, and folds a scope to one row per status', async () => {
    const team = await addTeam();
    const writes = Promise.all(
      Array.from({ length: 20 }, (_, i) => addEvents(team, 3, i % 2 === 0 ? 'pending' : 'success')),
    );
    const folds = Promise.all(Array.from({ length: 6 }, () => foldEventCounts(orm().em.fork(), 1000)));
    await Promise.all([writes, folds]);
    expect((await compare(team)).counted).toEqual((await compare(team)).actual);
    // Concurrent folds may each leave a row; the next fold of the scope merges them all.
    await addEvents(team, 1, 'pending');
    await addEvents(team, 1, 'success');
    await foldEventCounts(orm().em.fork(), 1000);
    const { counted, actual } = await compare(team);
    expect(counted).toEqual(actual);
    const rows = await sql<{ status: string; rows: string }>(
      'select status, count(*) as rows from event_counts where scope = $1 group by status',
      [team],
    );
    expect(rows.map((row) => Number(row.rows))).toEqual([1, 1]);
    expect(await foldEventCounts(orm().em.fork(), 1000)).toBe(0);
  });
});
