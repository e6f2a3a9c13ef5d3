import { initContract } from '@ts-rest/core';
import { DashboardErrorBody } from './common.js';
import { insightsContract } from './insights.js';
import { invitesContract } from './invites.js';
import { keysContract, signingSecretContract } from './keys.js';
import { overviewContract } from './overview.js';
import { sessionContract } from './session.js';
import { alertsContract, limitsContract, membersContract, teamsContract } from './teams.js';
import { tracingContract } from './tracing.js';

export * from './common.js';
export * from './insights.js';
export * from './invites.js';
export * from './keys.js';
export * from './overview.js';
export * from './session.js';
export * from './teams.js';
export * from './tracing.js';

const c = initContract();

/** Error statuses every dashboard route can answer with, all in the `DashboardErrorBody` shape. */
export const dashboardErrorResponses = {
  400: DashboardErrorBody,
  401: DashboardErrorBody,
  403: DashboardErrorBody,
  404: DashboardErrorBody,
  409: DashboardErrorBody,
  413: DashboardErrorBody,
  429: DashboardErrorBody,
  500: DashboardErrorBody,
} as const;

/**
 * The web dashboard's own routes under `/api/dashboard`, authenticated by a session cookie (plus
 * the `x-csrf-token` header on state-changing requests). Not part of the public `/api/v1` API:
 * the SDK does not mirror it. For crons and events the dashboard calls `/api/v1` itself.
 */
export const dashboardContract = c.router(
  {
    session: sessionContract,
    teams: teamsContract,
    members: membersContract,
    keys: keysContract,
    signingSecret: signingSecretContract,
    insights: insightsContract,
    limits: limitsContract,
    alerts: alertsContract,
    invites: invitesContract,
    tracing: tracingContract,
    overview: overviewContract,
  },
  { pathPrefix: '/api/dashboard', commonResponses: dashboardErrorResponses, strictStatusCodes: true },
);

/** The type of the dashboard contract. */
export type DashboardContract = typeof dashboardContract;
