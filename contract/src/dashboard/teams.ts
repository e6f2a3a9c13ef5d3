import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, dataOf } from '../common.js';
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
    responses: { 200: dataOf(z.object({ success: z.boolean() })) },
    summary: 'Remove a member',
    description: 'Owners remove anyone, members remove themselves; a team always keeps an owner.',
  },
});
