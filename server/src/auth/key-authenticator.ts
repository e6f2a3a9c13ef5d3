import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { asDate, rawQuery } from '../shared/raw-query.js';
import {
  bearerToken,
  hashApiKey,
  hashesMatch,
  isKeyUsable,
  looksLikeApiKey,
} from '../teams/api-key.rules.js';
import type { CachedKey, KeyCache } from './key-cache.js';

/** Who is calling: the key and the team it is scoped to. */
export interface AuthContext {
  keyId: string;
  teamId: string;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Turns an `Authorization` header into the caller's team, or undefined for any bad, revoked or expired key. */
export type Authenticate = (authorization: string | undefined, now: Date) => Promise<AuthContext | undefined>;

interface KeyRow {
  id: string;
  team_id: string;
  key_hash: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export function createKeyAuthenticator(
  orm: MikroORM,
  cache: KeyCache | undefined,
  logger: Logger,
): Authenticate {
  const lastUsedWrites = new Map<string, number>();

  const touch = (keyId: string, now: Date): void => {
    const previous = lastUsedWrites.get(keyId) ?? 0;
    if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return;
    if (lastUsedWrites.size > 10_000) lastUsedWrites.clear();
    lastUsedWrites.set(keyId, now.getTime());
    rawQuery(orm.em.fork(), 'update api_keys set last_used_at = $2 where id = $1', [keyId, now]).catch(
      (error: unknown) =>
        logger.warn({ err: error, keyId }, 'could not record when an API key was last used'),
    );
  };

  const lookup = async (hash: string, now: Date): Promise<CachedKey | undefined> => {
    const cached = cache?.get(hash, now.getTime());
    if (cached) return cached;
    const version = cache?.version ?? 0;
    const [row] = await rawQuery<KeyRow>(
      orm.em.fork(),
      'select id, team_id, key_hash, expires_at, revoked_at from api_keys where key_hash = $1',
      [hash],
    );
    if (!row) return undefined;
    const key: CachedKey = {
      id: row.id,
      teamId: row.team_id,
      keyHash: row.key_hash,
      expiresAt: row.expires_at === null ? null : asDate(row.expires_at),
      revokedAt: row.revoked_at === null ? null : asDate(row.revoked_at),
    };
    cache?.set(key, now.getTime(), version);
    return key;
  };

  return async (authorization, now) => {
    const token = bearerToken(authorization);
    if (!token || !looksLikeApiKey(token)) return undefined;
    const hash = hashApiKey(token);
    const key = await lookup(hash, now);
    if (!key || !hashesMatch(key.keyHash, hash) || !isKeyUsable(key, now)) return undefined;
    touch(key.id, now);
    return { keyId: key.id, teamId: key.teamId };
  };
}
