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
