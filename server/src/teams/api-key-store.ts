import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, asDateOrNull, placeholders, rawQuery } from '../shared/raw-query.js';

/**
 * The `api_keys` table, in bound SQL like every statement on it. Authentication reads a key by hash
 * for every request the key cache does not answer, and writes `last_used_at` without awaiting it.
 */

/** What authentication needs to know of a stored key. */
export interface KeyCredentials {
  id: string;
  teamId: string;
  keyHash: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A key as its team sees it: never its hash. An {@link ApiKey} is one. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A key as stored. */
export interface ApiKey extends ApiKeyView, KeyCredentials {
  /** The dashboard user who created the key; null for keys made by the CLI or the first start. */
  createdBy: string | null;
}

type Stamp = Date | string | null;

interface CredentialsRecord {
  id: string;
  team_id: string;
  key_hash: string;
  expires_at: Stamp;
  revoked_at: Stamp;
}

interface ApiKeyRecord extends CredentialsRecord {
  name: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Stamp;
  created_by: string | null;
}

const CREDENTIALS = ['id', 'team_id', 'key_hash', 'expires_at', 'revoked_at'] as const;

/** The columns in the order of {@link rowParams}. */
const COLUMNS = [
  ...CREDENTIALS,
  'name',
  'prefix',
  'created_at',
  'last_used_at',
  'created_by',
] as const satisfies readonly (keyof ApiKeyRecord)[];

const KEY_COLUMNS = COLUMNS.join(', ');

function toCredentials(row: CredentialsRecord): KeyCredentials {
  return {
    id: row.id,
    teamId: row.team_id,
    keyHash: row.key_hash,
    expiresAt: asDateOrNull(row.expires_at),
    revokedAt: asDateOrNull(row.revoked_at),
  };
}

function toApiKey(row: ApiKeyRecord): ApiKey {
  return {
    ...toCredentials(row),
    name: row.name,
    prefix: row.prefix,
    createdAt: asDate(row.created_at),
    lastUsedAt: asDateOrNull(row.last_used_at),
    createdBy: row.created_by,
  };
}

function rowParams(key: ApiKey): unknown[] {
  return [
    key.id,
    key.teamId,
    key.keyHash,
    key.expiresAt,
    key.revokedAt,
    key.name,
    key.prefix,
    key.createdAt,
    key.lastUsedAt,
    key.createdBy,
  ];
}

export async function insertApiKey(em: EntityManager, key: ApiKey): Promise<void> {
  const sql = `insert into api_keys (${KEY_COLUMNS}) values (${placeholders(COLUMNS.length)})`;
  await rawQuery(em, sql, rowParams(key));
}

/** The key stored with this hash, usable or not; undefined when there is none. */
export async function findKeyByHash(em: EntityManager, hash: string): Promise<KeyCredentials | undefined> {
  const [row] = await rawQuery<CredentialsRecord>(
    em,
    `select ${CREDENTIALS.join(', ')} from api_keys where key_hash = $1`,
    [hash],
  );
  return row && toCredentials(row);
}

/** Records that the key was used at `now`. */
export async function recordKeyUse(em: EntityManager, keyId: string, now: Date): Promise<void> {
  await rawQuery(em, 'update api_keys set last_used_at = $2 where id = $1', [keyId, now]);
}

/** The team's keys, newest first (the id breaks ties). */
export async function keysOfTeam(em: EntityManager, teamId: string): Promise<ApiKey[]> {
  const rows = await rawQuery<ApiKeyRecord>(
    em,
    `select ${KEY_COLUMNS} from api_keys where team_id = $1 order by created_at desc, id desc`,
    [teamId],
  );
  return rows.map(toApiKey);
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

/**
 * Revokes the key (of the team `teamId`, when given) at `now` unless it is revoked already: a key
 * keeps its first revocation time, and its row is written (and the key caches told) only once.
 * Returns the key as stored after; undefined when there is none.
 */
export async function revokeKey(
  em: EntityManager,
  keyId: string,
  now: Date,
  teamId: string | undefined,
): Promise<ApiKey | undefined> {
  const ofKey = 'id = $1 and ($2::uuid is null or team_id = $2)';
  const [revoked] = await rawQuery<ApiKeyRecord>(
    em,
    `update api_keys set revoked_at = $3 where ${ofKey} and revoked_at is null returning ${KEY_COLUMNS}`,
    [keyId, teamId ?? null, now],
  );
  if (revoked) return toApiKey(revoked);
  const [row] = await rawQuery<ApiKeyRecord>(em, `select ${KEY_COLUMNS} from api_keys where ${ofKey}`, [
    keyId,
    teamId ?? null,
  ]);
  return row && toApiKey(row);
}

/** Revokes the team's keys that the user created and that are not revoked yet; their hashes. */
export async function revokeKeysCreatedBy(
  tx: EntityManager,
  teamId: string,
  userId: string,
  now: Date,
): Promise<string[]> {
  const revoked = await rawQuery<{ key_hash: string }>(
    tx,
    `update api_keys set revoked_at = $3 where team_id = $1 and created_by = $2 and revoked_at is null
     returning key_hash`,
    [teamId, userId, now],
  );
  return revoked.map((row) => row.key_hash);
}
