import type { MikroORM } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { readTeamLimits } from './team-limits.service.js';

/** How long each team keeps its finished events (ms, 0 forever): its `event_retention` or the default. */
export function teamRetention(orm: MikroORM, defaults: TeamLimits): (teamId: string) => Promise<number> {
  return async (teamId) => (await readTeamLimits(orm.em.fork(), teamId, defaults)).event_retention_ms;
}
