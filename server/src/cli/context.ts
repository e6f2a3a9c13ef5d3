import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';

/** What a command may touch: its output streams and the loaded configuration. */
export interface CliContext {
  out: (line: string) => void;
  err: (line: string) => void;
  config: () => Config;
}

/** An error the CLI reports as one line and exit code 1. */
export class CliError extends Error {}

/** Opens the configured database (joining or starting the embedded one), runs `work`, and closes it. */
export async function withDatabase<T>(ctx: CliContext, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const config = ctx.config();
  const db = await openDatabase(config.database, { poolSize: 2, log: () => {} });
  try {
    return await work(db.orm.em.fork());
  } finally {
    await db.close();
  }
}

/** Prints a human line, or with --json one JSON object as the last line. */
export function report(ctx: CliContext, json: boolean | undefined, human: string[], data: unknown): void {
  if (json) ctx.out(JSON.stringify(data));
  else human.forEach((line) => ctx.out(line));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new CliError(`${what} must be a UUID, got "${value}"`);
  return value;
}
