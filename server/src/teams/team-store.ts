import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, asDateOrNull, placeholders, rawQuery } from '../shared/raw-query.js';

/**
 * The `teams` table, in bound SQL like every statement on it: one row type for the services, the
 * command line and the tests. Other owners join a team through team-fragments.ts.
 */

/** A team as stored. */
export interface Team {
  id: string;
  name: string;
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** Where failure alerts (`event.failed`, `cron.paused`) are sent; null sends none. */
  alertUrl: string | null;
  /** Whether webhook calls carry the delivery attempt's W3C `traceparent` (when traces are exported). */
  sendTraceparent: boolean;
  createdAt: Date;
  updatedAt: Date;
}

interface TeamRecord {
  id: string;
  name: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  alert_url: string | null;
  send_traceparent: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns in the order of {@link rowParams}. */
const COLUMNS = [
  'id',
  'name',
  'signing_secret',
  'previous_signing_secret',
  'previous_secret_expires_at',
  'alert_url',
  'send_traceparent',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof TeamRecord)[];

const TEAM_COLUMNS = COLUMNS.join(', ');

function toTeam(row: TeamRecord): Team {
  return {
    id: row.id,
    name: row.name,
    signingSecret: row.signing_secret,
    previousSigningSecret: row.previous_signing_secret,
    previousSecretExpiresAt: asDateOrNull(row.previous_secret_expires_at),
    alertUrl: row.alert_url,
    sendTraceparent: row.send_traceparent,
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
  };
}

function rowParams(team: Team): unknown[] {
  return [
    team.id,
    team.name,
    team.signingSecret,
    team.previousSigningSecret,
    team.previousSecretExpiresAt,
    team.alertUrl,
    team.sendTraceparent,
    team.createdAt,
    team.updatedAt,
  ];
}

export async function insertTeam(em: EntityManager, team: Team): Promise<void> {
  const sql = `insert into teams (${TEAM_COLUMNS}) values (${placeholders(COLUMNS.length)})`;
  await rawQuery(em, sql, rowParams(team));
}

/** The team, locked `for update` for the rest of the caller's transaction when `lock` says so. */
export async function findTeam(em: EntityManager, id: string, lock?: 'update'): Promise<Team | undefined> {
  const [row] = await rawQuery<TeamRecord>(
    em,
    `select ${TEAM_COLUMNS} from teams where id = $1${lock ? ` for ${lock}` : ''}`,
    [id],
  );
  return row && toTeam(row);
}

/** Whether the team exists. */
export async function teamExists(em: EntityManager, id: string): Promise<boolean> {
  return (await rawQuery(em, 'select 1 from teams where id = $1', [id])).length > 0;
}

/** Whether any team exists. */
export async function anyTeam(em: EntityManager): Promise<boolean> {
  return (await rawQuery(em, 'select 1 from teams limit 1')).length > 0;
}

/** Every team, oldest first (the id breaks ties). */
export async function listTeams(em: EntityManager): Promise<Team[]> {
  const rows = await rawQuery<TeamRecord>(em, `select ${TEAM_COLUMNS} from teams order by created_at, id`);
  return rows.map(toTeam);
}

/** Every team's id, in id order (the upkeep jobs walk the teams in it). */
export async function teamIds(em: EntityManager): Promise<string[]> {
  const rows = await rawQuery<{ id: string }>(em, 'select id from teams order by id');
  return rows.map((row) => row.id);
}

/** Writes every field of a team the caller holds locked (`for update`, {@link findTeam}). */
export async function saveTeam(tx: EntityManager, team: Team): Promise<void> {
  const assignments = COLUMNS.slice(1)
    .map((column, i) => `${column} = $${i + 2}`)
    .join(', ');
  await rawQuery(tx, `update teams set ${assignments} where id = $1`, rowParams(team));
}

/** The settings a team's owners change one at a time, and their columns. */
const SETTINGS = { alertUrl: 'alert_url', sendTraceparent: 'send_traceparent' } as const;

/**
 * Sets one setting of the team, without a lock: the statement writes that column and `updated_at`
 * only. Returns the team as written; undefined when there is none.
 */
export async function setTeamSetting<K extends keyof typeof SETTINGS>(
  em: EntityManager,
  teamId: string,
  setting: K,
  value: Team[K],
  now: Date,
): Promise<Team | undefined> {
  const [row] = await rawQuery<TeamRecord>(
    em,
    `update teams set ${SETTINGS[setting]} = $2, updated_at = $3 where id = $1 returning ${TEAM_COLUMNS}`,
    [teamId, value, now],
  );
  return row && toTeam(row);
}
