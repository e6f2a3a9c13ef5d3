import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors.js';
import { requireOwner, roleIn } from './members.service.js';
import { findTeam, setTeamSetting } from './team-store.js';

/** Whether the team's webhook calls carry the delivery attempt's W3C `traceparent`. */
export async function getSendTraceparent(em: EntityManager, teamId: string): Promise<boolean> {
  const team = await findTeam(em, teamId);
  if (!team) throw new NotFoundError('Team');
  return team.sendTraceparent;
}

/** Turns the team's `traceparent` header on or off. */
export async function setSendTraceparent(
  em: EntityManager,
  teamId: string,
  on: boolean,
  now: Date,
): Promise<boolean> {
  const team = await setTeamSetting(em, teamId, 'sendTraceparent', on, now);
  if (!team) throw new NotFoundError('Team');
  return team.sendTraceparent;
}

export async function showTeamTracing(em: EntityManager, userId: string, teamId: string): Promise<boolean> {
  await roleIn(em, userId, teamId);
  return getSendTraceparent(em, teamId);
}

// A header every receiver of the team gets is the owners' decision, like the alert URL.
export async function setTeamTracing(
  em: EntityManager,
  userId: string,
  teamId: string,
  on: boolean,
  now: Date,
): Promise<boolean> {
  await requireOwner(em, userId, teamId, 'change whether webhooks carry a traceparent header');
  return setSendTraceparent(em, teamId, on, now);
}
