import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamLimits } from '@webhook-scheduler/contract';
import { keyExpiryIssues } from './api-key.rules.js';
import { ValidationError } from '../errors.js';
import type { ApiKey } from './api-key-store.js';
import { getAlertUrl, setAlertUrl } from './team-alerts.service.js';
import { requireOwner, roleIn } from './members.service.js';
import {
  type CreatedKey,
  type SigningSecrets,
  createApiKeyWithinQuota,
  getSigningSecrets,
  listApiKeys,
  revokeApiKey,
  rotateSigningSecret,
} from './teams.service.js';

// Members see the team's keys; creating and revoking keys and revealing or rotating the signing
// secret are for owners (docs/reference/behaviour.md#team-security): a key or the secret outlives a member's membership.

export async function listTeamKeys(em: EntityManager, userId: string, teamId: string): Promise<ApiKey[]> {
  await roleIn(em, userId, teamId);
  return listApiKeys(em, teamId);
}

export async function createTeamKey(
  em: EntityManager,
  userId: string,
  teamId: string,
  input: { name: string; expires_at: string | null },
  defaults: TeamLimits,
  now: Date,
): Promise<CreatedKey> {
  await requireOwner(em, userId, teamId, 'create API keys');
  const expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
  const issues = keyExpiryIssues(expiresAt, now);
  if (issues.length > 0) throw new ValidationError(issues);
  return createApiKeyWithinQuota(
    em,
    teamId,
    { name: input.name, expiresAt, createdBy: userId },
    defaults,
    now,
  );
}

export async function revokeTeamKey(
  em: EntityManager,
  userId: string,
  teamId: string,
  keyId: string,
  now: Date,
): Promise<ApiKey> {
  await requireOwner(em, userId, teamId, 'revoke API keys');
  return revokeApiKey(em, keyId, now, teamId);
}

export async function revealSigningSecret(
  em: EntityManager,
  userId: string,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  await requireOwner(em, userId, teamId, 'reveal the signing secret');
  return getSigningSecrets(em, teamId, now);
}

export async function rotateTeamSecret(
  em: EntityManager,
  userId: string,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  await requireOwner(em, userId, teamId, 'rotate the signing secret');
  return rotateSigningSecret(em, teamId, now);
}

export async function showTeamAlerts(
  em: EntityManager,
  userId: string,
  teamId: string,
): Promise<string | null> {
  await roleIn(em, userId, teamId);
  return getAlertUrl(em, teamId);
}

// Alerts carry the team's failures to a URL of the owner's choosing: owners only, like the secret.
export async function setTeamAlerts(
  em: EntityManager,
  userId: string,
  teamId: string,
  url: string | null,
  now: Date,
): Promise<string | null> {
  await requireOwner(em, userId, teamId, 'change where failure alerts are sent');
  return setAlertUrl(em, teamId, url, now);
}
