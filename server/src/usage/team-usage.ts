import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits, TeamUsage } from '@webhook-scheduler/contract';
import { countActiveCrons } from '../crons/cron-counts.js';
import { pendingUsage } from '../events/store/event-queries.js';
import { type LimitOverrides, effectiveLimits } from '../limits/team-limits.rules.js';
import { teamLimitOverrides } from '../limits/team-limits.service.js';
import { roleIn } from '../teams/members.service.js';
import { countActiveApiKeys } from '../teams/api-key-store.js';
import { requireTeam } from '../teams/teams.service.js';

/** What the team uses now of its quotas, each counted by the owner of what it counts. */
export async function teamUsage(em: EntityManager, teamId: string): Promise<TeamUsage> {
  const pending = await pendingUsage(em, teamId);
  return {
    active_crons: await countActiveCrons(em, teamId),
    pending_events: pending.events,
    pending_bytes: pending.bytes,
    api_keys: await countActiveApiKeys(em, teamId),
  };
}

/** A team's limits in force, its own overrides and its usage, for the CLI and the dashboard. */
export async function teamLimitsReport(
  em: EntityManager,
  teamId: string,
  defaults: TeamLimits,
): Promise<{ limits: TeamLimits; overrides: LimitOverrides; usage: TeamUsage }> {
  await requireTeam(em, teamId);
  const overrides = await teamLimitOverrides(em, teamId);
  return { limits: effectiveLimits(defaults, overrides), overrides, usage: await teamUsage(em, teamId) };
}

/** The team's limits and usage for one of its members; another team is answered as not found. */
export async function memberTeamLimits(
  em: EntityManager,
  userId: string,
  teamId: string,
  defaults: TeamLimits,
): Promise<{ limits: TeamLimits; usage: TeamUsage }> {
  await roleIn(em, userId, teamId);
  const { limits, usage } = await teamLimitsReport(em, teamId, defaults);
  return { limits, usage };
}
