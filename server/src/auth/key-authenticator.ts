import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { findKeyByHash, recordKeyUse } from '../teams/api-key-store.js';
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
    recordKeyUse(orm.em.fork(), keyId, now).catch((error: unknown) =>
      logger.warn({ err: error, keyId }, 'could not record when an API key was last used'),
    );
  };

  const lookup = async (hash: string, now: Date): Promise<CachedKey | undefined> => {
    const cached = cache?.get(hash, now.getTime());
    if (cached) return cached;
    const version = cache?.version ?? 0;
    const key = await findKeyByHash(orm.em.fork(), hash);
    if (!key) return undefined;
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
