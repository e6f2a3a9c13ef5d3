import pg, { type ClientConfig } from 'pg';
import type { Logger } from 'pino';

/** When and where a background job runs, one process at a time. */
export interface ExclusiveJobOptions {
  /** The session-level advisory lock a run holds; fixed, the same in every process on one database. */
  lockId: number;
  /** The lock session's `application_name`, to find it in `pg_stat_activity`. */
  applicationName: string;
  /** For the session that holds the lock while a run lasts. */
  connection: ClientConfig;
  logger: Logger;
  /** The first run starts this long after `start()` (the process settles first); default 10 s. */
  firstRunAfterMs?: number | undefined;
  /** A run starts this long after the previous one ended; default 1 min. */
  everyMs?: number | undefined;
}

/** Where a job's lock session connects, where it logs, and when it runs. */
export type JobSetting = Pick<ExclusiveJobOptions, 'connection' | 'logger' | 'firstRunAfterMs' | 'everyMs'>;

/** What a run checks between its batches. */
export interface RunControl {
  /** True once `stop()` was called or the lock's session is gone: the run returns after its batch. */
  shouldStop(): boolean;
  /** Waits `ms`; a `stop()` ends the wait at once. */
  pause(ms: number): Promise<void>;
}

/** A background job; a run's result says `ran: false` when another process held the lock. */
export interface ExclusiveJob<Run> {
  /** One run, unless another process is running one. */
  runOnce(): Promise<Run & { ran: boolean }>;
  /** Runs after `firstRunAfterMs`, then every `everyMs` after the previous run, until stopped. */
  start(): void;
  /** Stops after the batch in progress. */
  stop(): Promise<void>;
}

/** A lock session; `lost` once its connection failed. */
interface LockSession {
  client: pg.Client;
  lost: boolean;
}

/**
 * Runs `work` in the background, in one process at a time: a run holds a session-level advisory
 * lock, released at its end, or when its connection closes, even if the process dies. Without its
 * lock's session another process may take the lock, so `shouldStop()` turns true and the run ends.
 * `idle` is the result of a run that did not get the lock. Once started, the job keeps its lock
 * session between runs until stopped: a session per run started a PostgreSQL backend every ~1.4 s
 * for the folding jobs alone, ~17–25 ms of PostgreSQL's CPU each (bench/README.md,
 * bench/idle, 2026-12-01).
 */
export function createExclusiveJob<Run extends object>(
  options: ExclusiveJobOptions,
  work: (control: RunControl) => Promise<Run>,
  idle: Run,
): ExclusiveJob<Run> {
  const { logger } = options;
  const firstRunAfterMs = options.firstRunAfterMs ?? 10_000;
  const everyMs = options.everyMs ?? 60_000;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let wake: (() => void) | undefined;
  let kept: LockSession | undefined;

  // A stop that came during a batch ends the pause after it at once.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) {
        resolve();
        return;
      }
      const pauseTimer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(pauseTimer);
        resolve();
      };
    });

  async function openSession(): Promise<LockSession> {
    const session: LockSession = {
      client: new pg.Client({ ...options.connection, application_name: options.applicationName }),
      lost: false,
    };
    session.client.on('error', (error) => {
      session.lost = true;
      logger.warn({ err: error }, 'lock connection lost');
    });
    await session.client.connect();
    return session;
  }

  async function runOnce(): Promise<Run & { ran: boolean }> {
    const session = kept && !kept.lost ? kept : await openSession();
    kept = undefined;
    // Kept only without the lock: a run that failed holds it until its session closes.
    let unlocked = false;
    try {
      const { lockId } = options;
      const [row] = (
        await session.client.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [lockId])
      ).rows;
      if (row?.taken !== true) {
        unlocked = true;
        return { ...idle, ran: false };
      }
      const result = await work({ shouldStop: () => stopping || session.lost, pause });
      // A session lost, or failing to unlock, is closed below: the lock goes with it.
      unlocked =
        !session.lost &&
        (await session.client.query('select pg_advisory_unlock($1)', [lockId]).then(
          () => true,
          () => false,
        ));
      return { ...result, ran: true };
    } finally {
      if (unlocked && started && !stopping && !session.lost) kept = session;
      else await session.client.end().catch(() => undefined);
    }
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      const run = runOnce().catch((error: unknown) => logger.warn({ err: error }, 'run failed'));
      running = run;
      void run.then(() => {
        running = undefined;
        if (!stopping) schedule(everyMs);
      });
    }, delayMs);
  }

  return {
    runOnce,
    start: () => {
      started = true;
      schedule(firstRunAfterMs);
    },
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await running;
      await kept?.client.end().catch(() => undefined);
      kept = undefined;
    },
  };
}
