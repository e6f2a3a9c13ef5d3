import { initServer } from '@ts-rest/express';
import { dashboardContract } from '@webhook-scheduler/contract';
import type { RouteDeps } from '../http/deps.js';
import { sessionOf } from '../sessions/session.middleware.js';
import {
  createTeamKey,
  listTeamKeys,
  revealSigningSecret,
  revokeTeamKey,
  rotateTeamSecret,
} from '../teams/team-settings.service.js';
import { toApiKeyDto, toSigningSecretDto } from './dashboard.dto.js';

const s = initServer();

export function keysRouter({ orm, now, forgetKeys, teamLimits }: RouteDeps) {
  return s.router(dashboardContract.keys, {
    list: async ({ params, req }) => {
      const keys = await listTeamKeys(orm.em, sessionOf(req).userId, params.teamId);
      return { status: 200, body: { data: keys.map(toApiKeyDto) } };
    },
    create: async ({ params, body, req }) => {
      const { userId } = sessionOf(req);
      const defaults = teamLimits.defaults;
      const { apiKey, key } = await createTeamKey(orm.em, userId, params.teamId, body, defaults, now());
      return { status: 201, body: { data: { api_key: toApiKeyDto(apiKey), key } } };
    },
    revoke: async ({ params, req }) => {
      const key = await revokeTeamKey(orm.em, sessionOf(req).userId, params.teamId, params.keyId, now());
      forgetKeys([key.keyHash]);
      return { status: 200, body: { data: toApiKeyDto(key) } };
    },
  });
}

export function signingSecretRouter({ orm, now }: RouteDeps) {
  return s.router(dashboardContract.signingSecret, {
    get: async ({ params, req }) => {
      const secrets = await revealSigningSecret(orm.em, sessionOf(req).userId, params.teamId, now());
      return { status: 200, body: { data: toSigningSecretDto(secrets) } };
    },
    rotate: async ({ params, req }) => {
      const secrets = await rotateTeamSecret(orm.em, sessionOf(req).userId, params.teamId, now());
      return { status: 200, body: { data: toSigningSecretDto(secrets) } };
    },
  });
}
