import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, rawQuery } from '../shared/raw-query.js';

// Authentication reads and touches api_keys here, in bound SQL: one indexed read by hash for every
// request the key cache does not answer, and a write of last_used_at that the caller does not await.

/** What authentication needs to know of a stored key. */
export interface KeyCredentials {
  id: string;
  teamId: string;
  keyHash: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

interface KeyRow {
  id: string;
  team_id: string;
  key_hash: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** The key stored with this hash, usable or not; undefined when there is none. */
export async function findKeyByHash(em: EntityManager, hash: string): Promise<KeyCredentials | undefined> {
  const [row] = await rawQuery<KeyRow>(
    em,
    'select id, team_id, key_hash, expires_at, revoked_at from api_keys where key_hash = $1',
    [hash],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    teamId: row.team_id,
    keyHash: row.key_hash,
    expiresAt: row.expires_at === null ? null : asDate(row.expires_at),
    revokedAt: row.revoked_at === null ? null : asDate(row.revoked_at),
  };
}

/** Records that the key was used at `now`. */
export async function recordKeyUse(em: EntityManager, keyId: string, now: Date): Promise<void> {
  await rawQuery(em, 'update api_keys set last_used_at = $2 where id = $1', [keyId, now]);
}
