import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, WebhookUrl, dataOf } from '../common.js';
import { TeamLimits, TeamUsage } from '../limits.js';
import { Email, TeamParams, TeamRole } from './common.js';
import { MyTeam } from './session.js';

const c = initContract();

/** The body of team creation. */
export const TeamInput = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  })
  .strict();
/** The body of team creation, as sent. */
export type TeamInput = z.input<typeof TeamInput>;

/** A member of a team. */
export const Member = z.object({ user_id: Uuid, email: z.string(), role: TeamRole, joined_at: Timestamp });
/** A member of a team. */
export type Member = z.infer<typeof Member>;

/** The body of adding a member: the email of an existing user. */
export const MemberInput = z.object({ email: Email, role: TeamRole.default('member') }).strict();
/** The body of adding a member, as sent. */
export type MemberInput = z.input<typeof MemberInput>;

/** The signed-in user's teams. */
export const teamsContract = c.router({
  list: {
    method: 'GET',
    path: '/teams',
    responses: { 200: dataOf(z.array(MyTeam)) },
    summary: 'List my teams',
    description: 'The teams the signed-in user belongs to, oldest first, with their role.',
  },
  create: {
    method: 'POST',
    path: '/teams',
    body: TeamInput,
    responses: { 201: dataOf(MyTeam) },
    summary: 'Create a team',
    description: 'Creates a team owned by the signed-in user.',
  },
});

/** The members of one team. */
export const membersContract = c.router({
  list: {
    method: 'GET',
    path: '/teams/:teamId/members',
    pathParams: TeamParams,
    responses: { 200: dataOf(z.array(Member)) },
    summary: 'List members',
    description: 'Members of a team the signed-in user belongs to, owners first.',
  },
  add: {
    method: 'POST',
    path: '/teams/:teamId/members',
    pathParams: TeamParams,
    body: MemberInput,
    responses: { 201: dataOf(Member) },
    summary: 'Add a member',
    description: 'Owners only. Adds an existing user by email; they must have signed up first.',
  },
  remove: {
    method: 'DELETE',
    path: '/teams/:teamId/members/:userId',
    pathParams: TeamParams.extend({ userId: Uuid.describe('The member’s user id.') }),
    body: c.noBody(),
    responses: {
      200: dataOf(
        z.object({
          success: z.boolean(),
          revoked_keys: z.number().int().describe('How many API keys the member had created, now revoked.'),
        }),
      ),
    },
    summary: 'Remove a member',
    description:
      'Owners remove anyone, members remove themselves; a team always keeps an owner. The API keys the member created are revoked.',
  },
});

/** A team's limits in force and what it uses of its quotas now. */
export const TeamLimitsView = z.object({ limits: TeamLimits, usage: TeamUsage });
/** A team's limits and usage. */
export type TeamLimitsView = z.infer<typeof TeamLimitsView>;

/** The limits of one team. */
export const limitsContract = c.router({
  get: {
    method: 'GET',
    path: '/teams/:teamId/limits',
    pathParams: TeamParams,
    responses: { 200: dataOf(TeamLimitsView) },
    summary: 'Show the team’s limits and usage',
    description: 'The limits in force (the operator’s defaults or the team’s own) and current usage.',
  },
});

/** Where a team's failure alerts go: `event.failed` and `cron.paused`, signed like its webhooks. */
export const TeamAlerts = z.object({
  alert_url: z.string().nullable().describe('Where failure alerts are sent; null sends none.'),
});
/** Where a team's failure alerts go. */
export type TeamAlerts = z.infer<typeof TeamAlerts>;

/** The body that sets or turns off a team's failure alerts. */
export const TeamAlertsInput = z.object({ alert_url: WebhookUrl.nullable() }).strict();
/** The body that sets or turns off a team's failure alerts, as sent. */
export type TeamAlertsInput = z.input<typeof TeamAlertsInput>;

/** A team's failure alerts (docs/reference/behaviour.md#alerts). */
export const alertsContract = c.router({
  get: {
    method: 'GET',
    path: '/teams/:teamId/alerts',
    pathParams: TeamParams,
    responses: { 200: dataOf(TeamAlerts) },
    summary: 'Show the failure alerts setting',
    description: 'Any member: where event.failed and cron.paused alerts are sent.',
  },
  set: {
    method: 'PUT',
    path: '/teams/:teamId/alerts',
    pathParams: TeamParams,
    body: TeamAlertsInput,
    responses: { 200: dataOf(TeamAlerts) },
    summary: 'Set the failure alerts URL',
    description: 'Owners only. An http(s) URL, or null to send no alerts.',
  },
});
