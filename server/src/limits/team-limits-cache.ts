import type { MikroORM } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { readTeamLimits } from './team-limits.service.js';

/** The limits of a team as the API applies them. */
export interface TeamLimitsSource {
  /** The configured defaults. */
  readonly defaults: TeamLimits;
  /** The team's limits, at most `ttlMs` old. */
  forTeam(teamId: string): Promise<TeamLimits>;
  /** The team's limits when cached, without waiting (the rate limiter's per-request path). */
  cached(teamId: string): TeamLimits | undefined;
}

interface Entry {
  limits: TeamLimits;
  readAt: number;
}

const MAX_ENTRIES = 50_000;

/**
 * Team limits read through a short-lived cache: a change made with `teams limits` applies within
 * `ttlMs` in every API process, without a read per request.
 */
export function cachedTeamLimits(
  orm: MikroORM,
  defaults: TeamLimits,
  { ttlMs = 5000, now = () => Date.now() }: { ttlMs?: number; now?: () => number } = {},
): TeamLimitsSource {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<TeamLimits>>();

  const fresh = (teamId: string): Entry | undefined => {
    const entry = entries.get(teamId);
    return entry && now() - entry.readAt < ttlMs ? entry : undefined;
  };

  const load = (teamId: string): Promise<TeamLimits> => {
    const pending = loading.get(teamId);
    if (pending) return pending;
    const read = readTeamLimits(orm.em.fork(), teamId, defaults)
      .then((limits) => {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(teamId, { limits, readAt: now() });
        return limits;
      })
      .finally(() => loading.delete(teamId));
    loading.set(teamId, read);
    return read;
  };

  return {
    defaults,
    forTeam: (teamId) => {
      const entry = fresh(teamId);
      return entry ? Promise.resolve(entry.limits) : load(teamId);
    },
    cached: (teamId) => fresh(teamId)?.limits,
  };
}
