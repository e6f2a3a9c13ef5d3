import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { ApiKeySchema } from '../teams/api-key.entity.js';
import { bearerToken, hashApiKey, hashesMatch, isKeyUsable, looksLikeApiKey } from './api-key.rules.js';

/** Who is calling: the key and the team it is scoped to. */
export interface AuthContext {
  keyId: string;
  teamId: string;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Turns an `Authorization` header into the caller's team, or undefined for any bad, revoked or expired key. */
export type Authenticate = (authorization: string | undefined, now: Date) => Promise<AuthContext | undefined>;

export function createKeyAuthenticator(orm: MikroORM, logger: Logger): Authenticate {
  const lastUsedWrites = new Map<string, number>();

  const touch = (keyId: string, now: Date): void => {
    const previous = lastUsedWrites.get(keyId) ?? 0;
    if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return;
    lastUsedWrites.set(keyId, now.getTime());
    orm.em
      .fork()
      .nativeUpdate(ApiKeySchema, { id: keyId }, { lastUsedAt: now })
      .catch((error: unknown) =>
        logger.warn({ err: error, keyId }, 'could not record when an API key was last used'),
      );
  };

  return async (authorization, now) => {
    const token = bearerToken(authorization);
    if (!token || !looksLikeApiKey(token)) return undefined;
    const hash = hashApiKey(token);
    const key = await orm.em.fork().findOne(ApiKeySchema, { keyHash: hash });
    if (!key || !hashesMatch(key.keyHash, hash) || !isKeyUsable(key, now)) return undefined;
    touch(key.id, now);
    return { keyId: key.id, teamId: key.teamId };
  };
}
