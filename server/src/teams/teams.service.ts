import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { generateApiKey } from '../auth/api-key.rules.js';
import { NotFoundError } from '../errors.js';
import { type ApiKey, ApiKeySchema } from './api-key.entity.js';
import { generateSigningSecret } from './signing-secret.rules.js';
import { type Team, TeamSchema } from './team.entity.js';

/** A key just created: `key` is shown once and never stored. */
export interface CreatedKey {
  apiKey: ApiKey;
  key: string;
}

export async function createTeam(em: EntityManager, name: string, now: Date): Promise<Team> {
  const team = em.create(TeamSchema, {
    id: randomUUID(),
    name,
    signingSecret: generateSigningSecret(),
    previousSigningSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return team;
}

export async function listTeams(em: EntityManager): Promise<Team[]> {
  return em.find(TeamSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function createApiKey(
  em: EntityManager,
  teamId: string,
  options: { name: string; expiresAt?: Date | null },
  now: Date,
): Promise<CreatedKey> {
  const team = await em.findOne(TeamSchema, { id: teamId });
  if (!team) throw new NotFoundError('Team');
  const generated = generateApiKey();
  const apiKey = em.create(ApiKeySchema, {
    id: randomUUID(),
    teamId,
    name: options.name,
    prefix: generated.prefix,
    keyHash: generated.hash,
    createdAt: now,
    expiresAt: options.expiresAt ?? null,
    revokedAt: null,
    lastUsedAt: null,
  });
  await em.flush();
  return { apiKey, key: generated.key };
}

export async function listApiKeys(em: EntityManager, teamId: string): Promise<ApiKey[]> {
  const team = await em.findOne(TeamSchema, { id: teamId });
  if (!team) throw new NotFoundError('Team');
  return em.find(ApiKeySchema, { teamId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/** Revokes a key; revoking a revoked key keeps its first revocation time. */
export async function revokeApiKey(em: EntityManager, keyId: string, now: Date): Promise<ApiKey> {
  const apiKey = await em.findOne(ApiKeySchema, { id: keyId });
  if (!apiKey) throw new NotFoundError('API key');
  apiKey.revokedAt ??= now;
  await em.flush();
  return apiKey;
}

/**
 * On a database without any team, creates a `default` team with one key and returns that key;
 * otherwise returns undefined. Concurrent first starts agree through a transaction-level lock.
 */
export async function ensureDefaultTeam(em: EntityManager, now: Date): Promise<CreatedKey | undefined> {
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(4311120262)');
    if ((await tx.count(TeamSchema, {})) > 0) return undefined;
    const team = await createTeam(tx, 'default', now);
    return createApiKey(tx, team.id, { name: 'default' }, now);
  });
}
