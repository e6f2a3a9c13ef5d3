import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { rawQuery } from '../shared/raw-query.js';

/** How many API processes serve the keys now, as this process last saw it. */
export interface ProcessCount {
  live(): number;
}

/** One process alone: the share of tests and of a process that cannot reach the database. */
export const SINGLE_PROCESS: ProcessCount = { live: () => 1 };

/** How often a process says it is alive and counts the others. */
const HEARTBEAT_MS = 1000;
/** A process not heard from for this long no longer takes a share. */
const LIVE_FOR_MS = 3500;

/**
 * This API process's entry in `api_processes`, renewed every second, and the number of live
 * processes read at the same time (by the database's clock, so the processes' clocks may differ).
 * Each process then applies an equal share of every key's rate limit with no write per request.
 * A process that joins is counted by the others within a second; one that dies stops counting
 * after 3.5 s (one that stops cleanly, at once).
 */
export class ApiProcessRegistry implements ProcessCount {
  readonly id = randomUUID();
  private count = 1;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
  ) {}

  live(): number {
    return this.count;
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      this.beat().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not renew this API process in api_processes'),
      );
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    const em = this.orm.em.fork();
    await rawQuery(
      em,
      `insert into api_processes (id, seen_at) values ($1, now())
       on conflict (id) do update set seen_at = now()`,
      [this.id],
    );
    const [row] = await rawQuery<{ live: string }>(
      em,
      `with gone as (delete from api_processes where seen_at < now() - interval '1 minute')
       select count(*) as live from api_processes where seen_at > now() - make_interval(secs => $1)`,
      [LIVE_FOR_MS / 1000],
    );
    this.count = Math.max(1, Number(row?.live ?? 1));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await rawQuery(this.orm.em.fork(), 'delete from api_processes where id = $1', [this.id]).catch(
      () => undefined,
    );
  }
}
