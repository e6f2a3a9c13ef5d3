// For explaining a figure: what PostgreSQL's backends are busy with, sampled every 20 ms from
// pg_stat_activity while a scenario runs (DEST_SAMPLE_ACTIVITY=1). Counts samples per statement kind.
import type pg from 'pg';

const KINDS: [string, RegExp][] = [
  ['backlog claim', /pending_teams/],
  ['slot claim', /claim due events/],
  ['outcome', /update events|event_outcomes|original_status/],
  ['release / reconcile', /parked_until = null|releaseDestinations|half_open/],
];

export interface ActivitySampler {
  stop(): Promise<{ samples: number; busy: Record<string, number> }>;
}

export function sampleActivity(db: pg.Client): ActivitySampler {
  const busy: Record<string, number> = {};
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await db.query<{ query: string }>(
        `select query from pg_stat_activity
         where state = 'active' and pid <> pg_backend_pid() and datname = current_database()`,
      );
      samples++;
      for (const { query } of rows) {
        const kind =
          KINDS.find(([, pattern]) => pattern.test(query))?.[0] ?? query.slice(0, 60).replace(/\s+/g, ' ');
        busy[kind] = (busy[kind] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await db.end();
      return { samples, busy };
    },
  };
}
