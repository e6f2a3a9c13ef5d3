import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits, TeamUsage } from '@webhook-scheduler/contract';
import { rawQuery } from '../shared/raw-query.js';
import { NotFoundError } from '../errors.js';
import { pendingUsage } from '../events/store/event-queries.js';
import { type LimitOverrides, effectiveLimits } from './team-limits.rules.js';

const FIELDS = [
  'max_payload_bytes',
  'max_headers_bytes',
  'max_active_crons',
  'max_pending_events',
  'max_pending_bytes',
  'min_cron_interval_ms',
  'requests_per_second',
  'request_burst',
  'event_retention_ms',
  'max_api_keys',
] as const satisfies readonly (keyof TeamLimits)[];

type OverrideRow = { [K in (typeof FIELDS)[number]]: number | string | null };

async function requireTeam(em: EntityManager, teamId: string): Promise<void> {
  const [team] = await rawQuery<{ id: string }>(em, 'select id from teams where id = $1', [teamId]);
  if (!team) throw new NotFoundError('Team');
}

/** The team's own limits (null where it uses the default); a team without any has none set. */
export async function teamLimitOverrides(em: EntityManager, teamId: string): Promise<LimitOverrides> {
  const [row] = await rawQuery<OverrideRow>(
    em,
    `select ${FIELDS.join(', ')} from team_limits where team_id = $1`,
    [teamId],
  );
  const overrides: LimitOverrides = {};
  for (const field of FIELDS) {
    const value = row?.[field];
    // bigint columns come back as text.
    overrides[field] = value === undefined || value === null ? null : Number(value);
  }
  return overrides;
}

/**
 * The limits in force for a team: its own overrides over the configured defaults. The one way to
 * read them (the API, the CLI and background jobs such as retention call it).
 */
export async function readTeamLimits(
  em: EntityManager,
  teamId: string,
  defaults: TeamLimits,
): Promise<TeamLimits> {
  return effectiveLimits(defaults, await teamLimitOverrides(em, teamId));
}

/** Sets (a number) or clears (null) some of a team's own limits, keeping the others. */
export async function setTeamLimits(
  em: EntityManager,
  teamId: string,
  changes: LimitOverrides,
  now: Date,
): Promise<void> {
  await requireTeam(em, teamId);
  const fields = FIELDS.filter((field) => changes[field] !== undefined);
  const values = fields.map((field) => changes[field] ?? null);
  const columns = fields.map((field) => `, ${field}`).join('');
  const placeholders = fields.map((_, i) => `, $${i + 3}`).join('');
  const updates = fields.map((field) => `, ${field} = excluded.${field}`).join('');
  await rawQuery(
    em,
    `insert into team_limits (team_id, updated_at${columns}) values ($1, $2${placeholders})
     on conflict (team_id) do update set updated_at = excluded.updated_at${updates}`,
    [teamId, now, ...values],
  );
}

/** How many active crons the team has. */
export async function countActiveCrons(em: EntityManager, teamId: string): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    'select count(*) as count from crons where team_id = $1 and is_active',
    [teamId],
  );
  return Number(row?.count ?? 0);
}

/** How many API keys of the team work now: neither revoked nor expired (by the database's clock). */
export async function countActiveApiKeys(em: EntityManager, teamId: string): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from api_keys
     where team_id = $1 and revoked_at is null and (expires_at is null or expires_at > now())`,
    [teamId],
  );
  return Number(row?.count ?? 0);
}

/** What the team uses now of its quotas. */
export async function teamUsage(em: EntityManager, teamId: string): Promise<TeamUsage> {
  const activeCrons = await countActiveCrons(em, teamId);
  const pending = await pendingUsage(em, teamId);
  return {
    active_crons: activeCrons,
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
