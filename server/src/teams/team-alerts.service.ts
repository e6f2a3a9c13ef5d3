import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors.js';
import { findTeam, setTeamSetting } from './team-store.js';

/**
 * The team's failure-alert URL: `event.failed` and `cron.paused` messages are sent there, signed
 * like every webhook of the team (docs/reference/behaviour.md#alerts). Null sends none.
 */
export async function getAlertUrl(em: EntityManager, teamId: string): Promise<string | null> {
  const team = await findTeam(em, teamId);
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
  const team = await setTeamSetting(em, teamId, 'alertUrl', url, now);
  if (!team) throw new NotFoundError('Team');
  return team.alertUrl;
}
