import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import type { RouteDeps } from '../http/deps.js';
import { sessionOf } from '../sessions/session.middleware.js';
import { listMyTeams } from '../teams/member-store.js';
import { addMember, createTeamFor, listMembers, removeMember } from '../teams/members.service.js';
import { setTeamAlerts, showTeamAlerts } from '../teams/team-settings.service.js';
import { memberTeamLimits } from '../usage/team-usage.js';
import { toMemberDto, toMyTeamDto } from './dashboard.dto.js';

const s = initServer();

export function teamsRouter({ orm, now, accounts }: RouteDeps) {
  return s.router(dashboardContract.teams, {
    list: async ({ req }) => {
      const teams = await listMyTeams(orm.em, sessionOf(req).userId);
      return { status: 200, body: { data: teams.map(toMyTeamDto) } };
    },
    create: async ({ body, req }) => {
      const userId = sessionOf(req).userId;
      const team = await createTeamFor(orm.em, userId, body.name, accounts.maxTeamsPerUser, now());
      return { status: 201, body: { data: toMyTeamDto(team) } };
    },
  });
}

export function membersRouter({ orm, now, forgetKeys, accounts }: RouteDeps) {
  return s.router(dashboardContract.members, {
    list: async ({ params, req }) => {
      const members = await listMembers(orm.em, sessionOf(req).userId, params.teamId);
      return { status: 200, body: { data: members.map(toMemberDto) } };
    },
    add: async ({ params, body, req }) => {
      const userId = sessionOf(req).userId;
      const max = accounts.maxTeamsPerUser;
      const member = await addMember(orm.em, userId, params.teamId, body, max, now());
      return { status: 201, body: { data: toMemberDto(member) } };
    },
    remove: async ({ params, req }) => {
      const { revokedKeyHashes } = await removeMember(
        orm.em,
        sessionOf(req).userId,
        params.teamId,
        params.userId,
        now(),
      );
      forgetKeys(revokedKeyHashes);
      return { status: 200, body: { data: { success: true, revoked_keys: revokedKeyHashes.length } } };
    },
  });
}

export function limitsRouter({ orm, teamLimits }: RouteDeps) {
  return s.router(dashboardContract.limits, {
    get: async ({ params, req }) => {
      const { limits, usage } = await memberTeamLimits(
        orm.em,
        sessionOf(req).userId,
        params.teamId,
        teamLimits.defaults,
      );
      return { status: 200, body: { data: { limits, usage } } };
    },
  });
}

export function alertsRouter({ orm, now }: RouteDeps) {
  return s.router(dashboardContract.alerts, {
    get: async ({ params, req }) => {
      const url = await showTeamAlerts(orm.em, sessionOf(req).userId, params.teamId);
      return { status: 200, body: { data: { alert_url: url } } };
    },
    set: async ({ params, body, req }) => {
      const url = await setTeamAlerts(orm.em, sessionOf(req).userId, params.teamId, body.alert_url, now());
      return { status: 200, body: { data: { alert_url: url } } };
    },
  });
}
