import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import type { RouteDeps } from '../http/deps.js';
import { sessionOf } from '../sessions/session.middleware.js';
import {
  acceptInvite,
  createInvite,
  listInvites,
  revokeInvite,
  showInvite,
} from '../teams/invites.service.js';
import { toInviteDto, toMyTeamDto } from './dashboard.dto.js';

const s = initServer();

export function invitesRouter({ orm, now, accounts }: RouteDeps) {
  return s.router(dashboardContract.invites, {
    list: async ({ params, req }) => {
      const invites = await listInvites(orm.em, sessionOf(req).userId, params.teamId, now());
      return { status: 200, body: { data: invites.map(toInviteDto) } };
    },
    create: async ({ params, body, req }) => {
      const { userId } = sessionOf(req);
      const created = await createInvite(orm.em, userId, params.teamId, body, accounts.signUp, now());
      return { status: 201, body: { data: { invite: toInviteDto(created.invite), token: created.token } } };
    },
    revoke: async ({ params, req }) => {
      await revokeInvite(orm.em, sessionOf(req).userId, params.teamId, params.inviteId);
      return { status: 200, body: { data: { success: true } } };
    },
    show: async ({ body }) => {
      const invite = await showInvite(orm.em, body.token, now());
      return {
        status: 200,
        body: {
          data: {
            email: invite.email,
            team_name: invite.teamName,
            role: invite.role,
            expires_at: invite.expiresAt.toISOString(),
            account_exists: invite.accountExists,
          },
        },
      };
    },
    accept: async ({ body, req }) => {
      const userId = sessionOf(req).userId;
      const team = await acceptInvite(orm.em, userId, body.token, accounts.maxTeamsPerUser, now());
      return { status: 200, body: { data: toMyTeamDto(team) } };
    },
  });
}
