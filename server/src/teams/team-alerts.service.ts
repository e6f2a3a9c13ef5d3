import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors.js';
import { TeamSchema } from './team.entity.js';

/**
 * The team's failure-alert URL: `event.failed` and `cron.paused` messages are sent there, signed
 * like every webhook of the team (docs/reference/behaviour.md#alerts). Null sends none.
 */
export async function getAlertUrl(em: EntityManager, teamId: string): Promise<string | null> {
  const team = await em.findOne(TeamSchema, { id: teamId });
  if (!team) throw new NotFoundError('Team');
  return team.alertUrl;
}

/** Sets (a validated http(s) URL) or clears (null) the team's failure-alert URL. */
export async function setAlertUrl(
  em: EntityManager,
  teamId: string,
  url: string | null,
  now: Date,
): Promise<string | null> {
  const team = await em.findOne(TeamSchema, { id: teamId });
  if (!team) throw new NotFoundError('Team');
  team.alertUrl = url;
  team.updatedAt = now;
  await em.flush();
  return team.alertUrl;
}
