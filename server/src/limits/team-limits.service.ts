import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { isForeignKeyViolation, rawQuery } from '../shared/raw-query.js';
import { NotFoundError } from '../errors.js';
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
  const fields = FIELDS.filter((field) => changes[field] !== undefined);
  const values = fields.map((field) => changes[field] ?? null);
  const columns = fields.map((field) => `, ${field}`).join('');
  const placeholders = fields.map((_, i) => `, $${i + 3}`).join('');
  const updates = fields.map((field) => `, ${field} = excluded.${field}`).join('');
  try {
    await rawQuery(
      em,
      `insert into team_limits (team_id, updated_at${columns}) values ($1, $2${placeholders})
       on conflict (team_id) do update set updated_at = excluded.updated_at${updates}`,
      [teamId, now, ...values],
    );
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new NotFoundError('Team');
    throw error;
  }
}
