import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { foldCronCounts } from './crons/cron-counts.js';
import { keepLastRunsBefore } from './crons/cron-store.js';
import { foldDestinationCounts } from './destinations/store/destination-folding.js';
import { foldCounterShards } from './events/store/counter-shards.js';
import { foldEventCounts } from './events/store/event-counts.js';
import { createRetentionJob } from './events/event-retention.js';
import { createIdempotencySweep } from './idempotency/idempotency-sweep.js';
import { teamRetention } from './limits/team-retention.js';
import { createFoldingJob } from './shared/folding-job.js';
import { createMinuteFolding } from './overview/minute-folding.js';

/** The upkeep a scheduler process runs besides deliveries, each job in one process at a time. */
export interface BackgroundJobs {
  /** Stops every job after the batch it is in. */
  stop(): Promise<void>;
}

export function startBackgroundJobs(
  db: Database,
  config: Config,
  registry: Registry,
  logger: Logger,
): BackgroundJobs {
  const setting = (component: string) => ({
    orm: db.orm,
    connection: db.connection,
    logger: logger.child({ component }),
  });
  const jobs = [
    createRetentionJob({
      ...setting('retention'),
      retentionFor: teamRetention(db.orm, config.teamLimits),
      beforeExpiring: keepLastRunsBefore,
      registry,
    }),
    createFoldingJob({
      ...setting('counts'),
      folds: [foldEventCounts, foldCronCounts, foldDestinationCounts, foldCounterShards],
    }),
    createIdempotencySweep({ ...setting('idempotency-sweep'), registry }),
    createMinuteFolding(setting('delivery-minutes')),
  ];
  for (const job of jobs) job.start();
  return {
    stop: async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
