import { describe, expect, it } from 'vitest';
import { unmigratedDatabase } from '../../test/unmigrated-database.js';
import { countActiveCrons, countCrons, foldCronCounts } from './cron-counts.js';

const { orm, sql, addTeam } = unmigratedDatabase('wst_cron_counts', 8);

/** Inserts `count` crons of the team straight into the table (the triggers count them). */
async function addCrons(team: string, count: number, active: boolean): Promise<void> {
  await sql(
    `insert into crons (id, team_id, cron_expression, webhook_url, method, is_active, created_at, updated_at)
     select gen_random_uuid(), $1, '* * * * *', 'https://hooks.example/in', 'POST', $2, now(), now()
     from generate_series(1, $3::int)`,
    [team, active, count],
  );
}

/** The counts as the API reads them beside the rows: all, active, inactive. */
async function compare(team: string) {
  const em = orm().em.fork();
  const counted = [
    await countCrons(em, team, undefined),
    await countActiveCrons(em, team),
    await countCrons(em, team, false),
  ];
  const [row] = await sql<{ all: string; active: string; inactive: string }>(
    `select count(*) as all, count(*) filter (where is_active) as active,
            count(*) filter (where not is_active) as inactive
     from crons where team_id = $1`,
    [team],
  );
  return { counted, actual: [Number(row?.all), Number(row?.active), Number(row?.inactive)] };
}

const appendedRows = async (team: string) =>
  Number(
    (await sql<{ n: string }>('select count(*) as n from cron_counts where team_id = $1', [team]))[0]?.n,
  );

describe('cron counts', () => {
  it('counts the existing crons when the migration adds them, then every insert, (de)activation and delete', async () => {
    await orm().migrator.up({ to: 'Migration20261128000000_cron_schedule_index' });
    const team = await addTeam();
    await addCrons(team, 12, true);
    await addCrons(team, 5, false);
    await orm().migrator.up();
    expect((await compare(team)).counted).toEqual([17, 12, 5]);

    await addCrons(team, 3, true);
    await sql(
      `update crons set is_active = false where id in (select id from crons where team_id = $1 and is_active limit 4)`,
      [team],
    );
    await sql(
      `update crons set is_active = true where id in (select id from crons where team_id = $1 and not is_active limit 1)`,
      [team],
    );
    await sql(
      `delete from crons where id in (select id from crons where team_id = $1 and is_active limit 2)`,
      [team],
    );
    const { counted, actual } = await compare(team);
    expect(counted).toEqual(actual);
    expect(counted).toEqual([18, 10, 8]);
  });

  it("appends nothing for an update that leaves a cron's state as it was, as every occurrence's does", async () => {
    const team = await addTeam();
    await addCrons(team, 4, true);
    await foldCronCounts(orm().em.fork(), 1000);
    const before = await appendedRows(team);
    await sql(
      `update crons set is_active = is_active, consecutive_failures = 0, last_run_at = now() where team_id = $1`,
      [team],
    );
    expect(await appendedRows(team)).toBe(before);
  });

  it("drops a deleted team's counts at the next fold", async () => {
    const team = await addTeam();
    await addCrons(team, 6, true);
    await sql('delete from teams where id = $1', [team]);
    expect(await countCrons(orm().em.fork(), team, undefined)).toBe(0);
    await foldCronCounts(orm().em.fork(), 1000);
    expect(await appendedRows(team)).toBe(0);
  });

  it('keeps the counts exact while writes and folds run at once, and folds a team to one row per state', async () => {
    const team = await addTeam();
    const writes = Promise.all(Array.from({ length: 20 }, (_, i) => addCrons(team, 3, i % 2 === 0)));
    const flips = Promise.all(
      Array.from({ length: 5 }, () =>
        sql(
          `update crons set is_active = not is_active
           where id in (select id from crons where team_id = $1 limit 2 for update skip locked)`,
          [team],
        ),
      ),
    );
    const folds = Promise.all(Array.from({ length: 6 }, () => foldCronCounts(orm().em.fork(), 1000)));
    await Promise.all([writes, flips, folds]);
    expect((await compare(team)).counted).toEqual((await compare(team)).actual);
    // Concurrent folds may each leave a row; the next fold of the team merges them all.
    await addCrons(team, 1, true);
    await addCrons(team, 1, false);
    await foldCronCounts(orm().em.fork(), 1000);
    const { counted, actual } = await compare(team);
    expect(counted).toEqual(actual);
    expect(await appendedRows(team)).toBe(2);
    expect(await foldCronCounts(orm().em.fork(), 1000)).toBe(0);
  });
});
