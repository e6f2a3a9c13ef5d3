import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { generateApiKey } from './api-key.rules.js';
import { NotFoundError, QuotaExceededError } from '../errors.js';
import { quotaRefusal } from '../limits/limits.rules.js';
import { lockTeamQuotas } from '../limits/quota-locks.js';
import { readTeamLimits } from '../limits/team-limits.service.js';
import { rawQuery } from '../shared/raw-query.js';
import { type ApiKey, countActiveApiKeys, insertApiKey, keysOfTeam, revokeKey } from './api-key-store.js';
import { generateSigningSecret } from './signing-secret.rules.js';
import { type Team, anyTeam, findTeam, insertTeam, saveTeam, teamExists } from './team-store.js';

// Reads that are one statement of a store, for the callers of this service (the command line, the
// upkeep jobs, the usage report, the dashboard's DTOs).

/** A key just created: `key` is shown once and never stored. */
export interface CreatedKey {
  apiKey: ApiKey;
  key: string;
}

export async function createTeam(em: EntityManager, name: string, now: Date): Promise<Team> {
  const team: Team = {
    id: randomUUID(),
    name,
    signingSecret: generateSigningSecret(),
    previousSigningSecret: null,
    previousSecretExpiresAt: null,
    alertUrl: null,
    sendTraceparent: false,
    createdAt: now,
    updatedAt: now,
  };
  await insertTeam(em, team);
  return team;
}

/**
 * Creates a key without counting the team's keys: for the first key of a new team and for tests.
 * People's keys go through createApiKeyWithinQuota.
 */
export async function createApiKey(
  em: EntityManager,
  teamId: string,
  options: KeyOptions,
  now: Date,
): Promise<CreatedKey> {
  await requireTeam(em, teamId);
  return insertKey(em, teamId, options, now);
}

async function insertKey(em: EntityManager, teamId: string, options: KeyOptions, now: Date) {
  const generated = generateApiKey();
  const apiKey: ApiKey = {
    id: randomUUID(),
    teamId,
    name: options.name,
    prefix: generated.prefix,
    keyHash: generated.hash,
    createdAt: now,
    expiresAt: options.expiresAt ?? null,
    revokedAt: null,
    lastUsedAt: null,
    createdBy: options.createdBy ?? null,
  };
  await insertApiKey(em, apiKey);
  return { apiKey, key: generated.key };
}

/** Who creates a key and how it is made: a name, an expiry, the dashboard user who made it. */
export interface KeyOptions {
  name: string;
  expiresAt?: Date | null;
  createdBy?: string | null;
}

/**
 * Creates a key unless the team has as many active keys as its limit allows (`max_api_keys`, its
 * own or the default): 403 QUOTA_EXCEEDED. The dashboard and the command line create keys this
 * way. Exact under concurrency: the count runs under the team's quota lock, so simultaneous
 * creates in any number of processes count one after the other.
 */
export async function createApiKeyWithinQuota(
  em: EntityManager,
  teamId: string,
  options: KeyOptions,
  defaults: TeamLimits,
  now: Date,
): Promise<CreatedKey> {
  return em.transactional(async (tx) => {
    await requireTeam(tx, teamId);
    const limit = (await readTeamLimits(tx, teamId, defaults)).max_api_keys;
    await lockTeamQuotas(tx, teamId);
    const refusal = quotaRefusal('api_keys', limit, await countActiveApiKeys(tx, teamId));
    if (refusal) throw new QuotaExceededError(refusal.message, refusal.details);
    return insertKey(tx, teamId, options, now);
  });
}

/** Throws NotFoundError unless the team exists. */
export async function requireTeam(em: EntityManager, teamId: string): Promise<void> {
  if (!(await teamExists(em, teamId))) throw new NotFoundError('Team');
}

export async function listApiKeys(em: EntityManager, teamId: string): Promise<ApiKey[]> {
  await requireTeam(em, teamId);
  return keysOfTeam(em, teamId);
}

/**
 * Revokes a key; revoking a revoked key keeps its first revocation time. With `teamId`, a key of
 * another team is answered as not found.
 */
export async function revokeApiKey(
  em: EntityManager,
  keyId: string,
  now: Date,
  teamId?: string,
): Promise<ApiKey> {
  const apiKey = await revokeKey(em, keyId, now, teamId);
  if (!apiKey) throw new NotFoundError('API key');
  return apiKey;
}

/** How long a rotated-out signing secret keeps signing, so receivers can switch without a gap. */
const SECRET_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** A team's signing secrets: the current one, and the previous one while its grace period lasts. */
export interface SigningSecrets {
  current: string;
  previous: { secret: string; expiresAt: Date } | null;
}

function secretsOf(team: Team, now: Date): SigningSecrets {
  const expiresAt = team.previousSecretExpiresAt;
  const previous =
    team.previousSigningSecret && expiresAt && expiresAt > now
      ? { secret: team.previousSigningSecret, expiresAt }
      : null;
  return { current: team.signingSecret, previous };
}

export async function getSigningSecrets(
  em: EntityManager,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  const team = await findTeam(em, teamId);
  if (!team) throw new NotFoundError('Team');
  return secretsOf(team, now);
}

/**
 * Replaces the team's signing secret. Webhooks are signed with both secrets for 24 hours after,
 * so receivers can move to the new one without rejecting any delivery.
 */
export async function rotateSigningSecret(
  em: EntityManager,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  return em.transactional(async (tx) => {
    const team = await findTeam(tx, teamId, 'update');
    if (!team) throw new NotFoundError('Team');
    const rotated: Team = {
      ...team,
      previousSigningSecret: team.signingSecret,
      previousSecretExpiresAt: new Date(now.getTime() + SECRET_ROTATION_GRACE_MS),
      signingSecret: generateSigningSecret(),
      updatedAt: now,
    };
    await saveTeam(tx, rotated);
    return secretsOf(rotated, now);
  });
}

/**
 * On a database without any team, creates a `default` team with one key and returns that key;
 * otherwise returns undefined. Concurrent first starts agree through a transaction-level lock.
 */
export async function ensureDefaultTeam(em: EntityManager, now: Date): Promise<CreatedKey | undefined> {
  return em.transactional(async (tx) => {
    await rawQuery(tx, 'select pg_advisory_xact_lock(4311120262)');
    if (await anyTeam(tx)) return undefined;
    const team = await createTeam(tx, 'default', now);
    return insertKey(tx, team.id, { name: 'default' }, now);
  });
}
