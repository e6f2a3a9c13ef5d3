import pg, { type ClientConfig } from 'pg';

/** Runs one statement on the test server's maintenance connection (create or drop a database). */
export async function adminQuery(admin: ClientConfig, sql: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** How long a drop waits for the database's sessions to end on their own before it ends them. */
const SESSIONS_LEAVE_MS = 5000;

/**
 * Drops a test database once its sessions have left, or ends those left after a few seconds; returns
 * how many it ended. A pool's `end()` resolves before its connections have closed: a forced drop at
 * once would end them with an error, which a `pg.Pool` without an error listener throws as an
 * uncaught exception (a CI run failed so).
 */
export async function dropDatabase(admin: ClientConfig, name: string): Promise<number> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    const deadline = Date.now() + SESSIONS_LEAVE_MS;
    let sessions = 0;
    for (;;) {
      const { rows } = await client.query<{ sessions: number }>(
        'select count(*)::int as sessions from pg_stat_activity where datname = $1',
        [name],
      );
      sessions = rows[0]?.sessions ?? 0;
      if (sessions === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`drop database if exists ${name} with (force)`);
    return sessions;
  } finally {
    await client.end();
  }
}
