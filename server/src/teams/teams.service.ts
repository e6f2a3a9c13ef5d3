import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { generateApiKey } from './api-key.rules.js';
import { NotFoundError, QuotaExceededError } from '../errors.js';
import { quotaRefusal } from '../limits/limits.rules.js';
import { lockTeamQuotas } from '../limits/quota-locks.js';
import { readTeamLimits } from '../limits/team-limits.service.js';
import { rawQuery } from '../shared/raw-query.js';
import { type ApiKey, ApiKeySchema } from './api-key.entity.js';
import { generateSigningSecret } from './signing-secret.rules.js';
import { type Team, TeamSchema } from './team.entity.js';

/** A key as its team sees it: never its hash. An API key entity is one. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

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

/** Every team's id, in id order (the upkeep jobs walk the teams in it). */
export async function teamIds(em: EntityManager): Promise<string[]> {
  const rows = await rawQuery<{ id: string }>(em, 'select id from teams order by id');
  return rows.map((row) => row.id);
}

export async function listTeams(em: EntityManager): Promise<Team[]> {
  return em.find(TeamSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
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
    createdBy: options.createdBy ?? null,
  });
  await em.flush();
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
    const team = await tx.findOne(TeamSchema, { id: teamId });
    if (!team) throw new NotFoundError('Team');
    const limit = (await readTeamLimits(tx, teamId, defaults)).max_api_keys;
    await lockTeamQuotas(tx, teamId);
    const refusal = quotaRefusal('api_keys', limit, await countActiveApiKeys(tx, teamId));
    if (refusal) throw new QuotaExceededError(refusal.message, refusal.details);
    return createApiKey(tx, teamId, options, now);
  });
}

/** Throws NotFoundError unless the team exists. */
export async function requireTeam(em: EntityManager, teamId: string): Promise<void> {
  if (!(await em.findOne(TeamSchema, { id: teamId }, { fields: ['id'] }))) throw new NotFoundError('Team');
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

export async function listApiKeys(em: EntityManager, teamId: string): Promise<ApiKey[]> {
  const team = await em.findOne(TeamSchema, { id: teamId });
  if (!team) throw new NotFoundError('Team');
  return em.find(ApiKeySchema, { teamId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
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
  const apiKey = await em.findOne(ApiKeySchema, teamId === undefined ? { id: keyId } : { id: keyId, teamId });
  if (!apiKey) throw new NotFoundError('API key');
  apiKey.revokedAt ??= now;
  await em.flush();
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
  const team = await em.findOne(TeamSchema, { id: teamId });
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
    const team = await tx.findOne(TeamSchema, { id: teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!team) throw new NotFoundError('Team');
    team.previousSigningSecret = team.signingSecret;
    team.previousSecretExpiresAt = new Date(now.getTime() + SECRET_ROTATION_GRACE_MS);
    team.signingSecret = generateSigningSecret();
    team.updatedAt = now;
    await tx.flush();
    return secretsOf(team, now);
  });
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
