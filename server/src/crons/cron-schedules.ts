import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../shared/raw-query.js';

/** An active cron's schedule, and how far its occurrences exist as pending events already. */
export interface ActiveSchedule {
  expression: string;
  timezone: string | null;
  materializedUntil: Date | null;
}

/** The team's active crons' schedules (at most its active-cron quota), through (team_id, is_active). */
export async function activeSchedules(em: EntityManager, teamId: string): Promise<ActiveSchedule[]> {
  const rows = await rawQuery<{
    cron_expression: string;
    timezone: string | null;
    materialized_until: Date | null;
  }>(em, 'select cron_expression, timezone, materialized_until from crons where team_id = $1 and is_active', [
    teamId,
  ]);
  return rows.map((row) => ({
    expression: row.cron_expression,
    timezone: row.timezone,
    materializedUntil: row.materialized_until === null ? null : new Date(row.materialized_until),
  }));
}
