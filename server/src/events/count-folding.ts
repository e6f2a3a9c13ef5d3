import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { foldEventCounts } from './store/event-counts.js';

/** A background loop that keeps the event counts folded: a count sums a few rows, however many writes. */
export interface CountFolding {
  start(): void;
  stop(): Promise<void>;
}

const SCOPES_PER_FOLD = 1000;

export function createCountFolding(
  orm: MikroORM,
  logger: Logger,
  { everyMs = 2000 }: { everyMs?: number } = {},
): CountFolding {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopping = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = foldEventCounts(orm.em.fork(), SCOPES_PER_FOLD)
        .catch((error: unknown) => logger.warn({ err: error }, 'could not fold the event counts'))
        .finally(() => {
          running = undefined;
          if (!stopping) schedule();
        });
    }, everyMs);
  };
  return {
    start: schedule,
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
