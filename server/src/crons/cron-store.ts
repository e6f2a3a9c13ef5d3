import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, asDateOrNull, jsonParam, placeholders, rawQuery } from '../shared/raw-query.js';
import { latestRunOf } from '../events/store/cron-runs.js';
import type { CronFields } from './cron.rules.js';
import { REQUEST_COLUMN_NAMES, type RequestColumns, requestFrom } from '../shared/request-columns.js';

/**
 * The `crons` table, in bound SQL like every statement on it (the top-up's and the outcome
 * statement's too): one row type for the API, the top-up and the tests.
 */

/** A cron as stored. */
export interface Cron extends CronFields {
  id: string;
  teamId: string;
  /** Kept by the outcome statement (crons/cron-outcomes.ts). */
  consecutiveFailures: number;
  lastRunAt: Date | null;
  lastStatus: 'success' | 'failed' | null;
  pausedReason: 'failures' | null;
  /** The time up to which its occurrences are pending events; null before the first. */
  materializedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CronRecord extends RequestColumns {
  id: string;
  team_id: string;
  cron_expression: string;
  timezone: string | null;
  is_active: boolean;
  pause_after_failures: number | null;
  consecutive_failures: number;
  last_run_at: Date | string | null;
  last_status: 'success' | 'failed' | null;
  paused_reason: 'failures' | null;
  materialized_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns in the order of {@link rowParams}. */
const COLUMNS = [
  'id',
  'team_id',
  'cron_expression',
  'timezone',
  ...REQUEST_COLUMN_NAMES,
  'is_active',
  'pause_after_failures',
  'consecutive_failures',
  'last_run_at',
  'last_status',
  'paused_reason',
  'materialized_until',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof CronRecord)[];

/** The select list of a {@link Cron}, as its row holds it. */
export const CRON_COLUMNS = COLUMNS.join(', ');

/**
 * The SQL expression of a cron's last run, its row being `c`: the later of what its row holds
 * (written whenever the row is) and its latest ended occurrence's run. A healthy cron's success is
 * not written to its row (crons/cron-outcomes.ts).
 */
export const lastRunAt = (c: string): string => `greatest(${c}.last_run_at, ${latestRunOf(`${c}.id`)})`;

/** The select list of a {@link Cron} as the API shows it: its last run as {@link lastRunAt}. */
const CRON_AS_SHOWN = COLUMNS.map((column) =>
  column === 'last_run_at' ? `${lastRunAt('crons')} as last_run_at` : `crons.${column}`,
).join(', ');

export function toCron(row: CronRecord): Cron {
  return {
    id: row.id,
    teamId: row.team_id,
    cronExpression: row.cron_expression,
    timezone: row.timezone,
    ...requestFrom(row),
    isActive: row.is_active,
    pauseAfterFailures: row.pause_after_failures,
    consecutiveFailures: row.consecutive_failures,
    lastRunAt: asDateOrNull(row.last_run_at),
    lastStatus: row.last_status,
    pausedReason: row.paused_reason,
    materializedUntil: asDateOrNull(row.materialized_until),
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
  };
}

function rowParams(cron: Cron): unknown[] {
  return [
    cron.id,
    cron.teamId,
    cron.cronExpression,
    cron.timezone,
    cron.webhookUrl,
    cron.method,
    jsonParam(cron.headers),
    jsonParam(cron.payload),
    jsonParam(cron.retryConfig),
    cron.timeoutMs,
    cron.isActive,
    cron.pauseAfterFailures,
    cron.consecutiveFailures,
    cron.lastRunAt,
    cron.lastStatus,
    cron.pausedReason,
    cron.materializedUntil,
    cron.createdAt,
    cron.updatedAt,
  ];
}

/** Rows per insert statement: PostgreSQL binds at most 65,535 parameters. */
const ROWS_PER_INSERT = 1000;

/** Inserts the crons (the API creates one; tests many). */
export async function insertCrons(em: EntityManager, crons: Cron[]): Promise<void> {
  for (let start = 0; start < crons.length; start += ROWS_PER_INSERT) {
    const chunk = crons.slice(start, start + ROWS_PER_INSERT);
    const values = chunk
      .map((_, row) => `(${placeholders(COLUMNS.length, row * COLUMNS.length + 1)})`)
      .join(', ');
    await rawQuery(em, `insert into crons (${CRON_COLUMNS}) values ${values}`, chunk.flatMap(rowParams));
  }
}

/**
 * Writes every field of a cron the caller holds locked (`for no key update`, {@link findCron}): what
 * the outcome statement keeps cannot change meanwhile, so the row read is the row written back.
 */
export async function saveCron(tx: EntityManager, cron: Cron): Promise<void> {
  const assignments = COLUMNS.slice(2)
    .map((column, i) => `${column} = $${i + 3}`)
    .join(', ');
  await rawQuery(tx, `update crons set ${assignments} where id = $1 and team_id = $2`, rowParams(cron));
}

/** How a cron write holds the row (docs/guides/operations.md, "Locks"). */
export type CronLock = 'no key update' | 'update' | 'key share';

/** The team's cron, locked for the rest of the caller's transaction when `lock` says how. */
export async function findCron(
  em: EntityManager,
  teamId: string,
  id: string,
  lock?: CronLock,
): Promise<Cron | undefined> {
  const [row] = await rawQuery<CronRecord>(
    em,
    `select ${CRON_AS_SHOWN} from crons where id = $1 and team_id = $2${lock ? ` for ${lock}` : ''}`,
    [id, teamId],
  );
  return row && toCron(row);
}

/** A page of the team's crons, newest first (the id breaks ties, so pages are stable). */
export async function pageOfCrons(
  em: EntityManager,
  teamId: string,
  { isActive, limit, offset }: { isActive: boolean | undefined; limit: number; offset: number },
): Promise<Cron[]> {
  const rows = await rawQuery<CronRecord>(
    em,
    // The page first: in one select, the last run was read for every row the offset skipped too.
    `select ${CRON_AS_SHOWN}
     from (select * from crons where team_id = $1 and ($2::boolean is null or is_active = $2)
           order by created_at desc, id desc limit $3 offset $4) crons
     order by created_at desc, id desc`,
    [teamId, isActive ?? null, limit, offset],
  );
  return rows.map(toCron);
}

/** Deletes a cron the caller holds locked (`for update`), after its events. */
export async function deleteCronRow(tx: EntityManager, id: string): Promise<void> {
  await rawQuery(tx, 'delete from crons where id = $1', [id]);
}

/**
 * Writes into the team's crons the last run that only their occurrences hold, where those may be
 * deleted by a retention `cutoff`: crons whose row's last run is older than it (or none). Run before
 * retention deletes the team's events, so that deleting a cron's latest occurrence loses no run. A
 * healthy cron's row is written once per retention period this way, never at every run.
 */
export async function keepLastRunsBefore(em: EntityManager, teamId: string, cutoff: Date): Promise<void> {
  await rawQuery(
    em,
    `update crons c set last_run_at = r.run
     from (select s.id, ${latestRunOf('s.id')} as run from crons s
           where s.team_id = $1 and (s.last_run_at is null or s.last_run_at < $2)) r
     where c.id = r.id and r.run > coalesce(c.last_run_at, '-infinity')`,
    [teamId, cutoff],
  );
}
