import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, dataOf } from '../common.js';
import { Email, PASSWORD_LIMITS, TeamRole } from './common.js';

const c = initContract();

/** A password chosen at sign-up or on a password reset. */
export const NewPassword = z
  .string()
  .min(PASSWORD_LIMITS.min, `password must be at least ${PASSWORD_LIMITS.min} characters`)
  .max(PASSWORD_LIMITS.max, `password must be at most ${PASSWORD_LIMITS.max} characters`);

/** The secret of a one-time link (an invite, a password reset), as the link's `#fragment` holds it. */
export const LinkToken = z
  .string()
  .min(1, 'token is required')
  .max(200, 'token must be at most 200 characters');

/** The body of sign-up: an email and a new password, and the token of an invite link when there is one. */
export const SignUpInput = z
  .object({
    email: Email,
    password: NewPassword,
    invite: LinkToken.optional().describe(
      'The token of an invite link for this email: the account joins the invite’s team instead of getting a team of its own.',
    ),
  })
  .strict();
/** The body of sign-up, as sent. */
export type SignUpInput = z.input<typeof SignUpInput>;

/** The body of sign-in. Any password length is accepted here: a wrong one is just wrong. */
export const SignInInput = z
  .object({ email: Email, password: z.string().min(1, 'password is required').max(PASSWORD_LIMITS.max) })
  .strict();
/** The body of sign-in, as sent. */
export type SignInInput = z.input<typeof SignInInput>;

/** A dashboard user. */
export const User = z.object({ id: Uuid, email: z.string(), created_at: Timestamp });
/** A dashboard user. */
export type User = z.infer<typeof User>;

/** A team the signed-in user belongs to, with their role in it. */
export const MyTeam = z.object({ id: Uuid, name: z.string(), role: TeamRole, created_at: Timestamp });
/** A team the signed-in user belongs to. */
export type MyTeam = z.infer<typeof MyTeam>;

/** The signed-in user, their teams, and the CSRF token their state-changing requests must carry. */
export const Session = z.object({
  user: User,
  teams: z.array(MyTeam),
  csrf_token: z.string().describe('Send it as the x-csrf-token header of every POST, PUT and DELETE.'),
});
/** The signed-in user and their teams. */
export type Session = z.infer<typeof Session>;

/**
 * Who may sign up: anyone (`open`), only people with an invite link (`invite`), or nobody
 * (`closed`: the operator creates accounts with the command line).
 */
export const SignUpMode = z.enum(['open', 'invite', 'closed']);
/** Who may sign up. */
export type SignUpMode = z.infer<typeof SignUpMode>;

/** The body that sets a new password from a password-reset link. */
export const PasswordResetInput = z.object({ token: LinkToken, password: NewPassword }).strict();
/** The body that sets a new password from a password-reset link, as sent. */
export type PasswordResetInput = z.input<typeof PasswordResetInput>;

/** Sign-up, sign-in, sign-out, password reset and the current session. */
export const sessionContract = c.router({
  signUp: {
    method: 'POST',
    path: '/session/sign-up',
    body: SignUpInput,
    responses: { 201: dataOf(Session) },
    summary: 'Sign up',
    description:
      'Creates a user and signs them in (sets the session cookie). Without an invite the user gets a first team they own; with one, they join the invite’s team. Refused with 403 FORBIDDEN when the service’s sign-up mode does not allow it.',
  },
  signUpMode: {
    method: 'GET',
    path: '/session/sign-up-mode',
    responses: { 200: dataOf(z.object({ mode: SignUpMode })) },
    summary: 'Who may sign up',
    description: 'Needs no session: the sign-in and sign-up pages show what the service allows.',
  },
  resetPassword: {
    method: 'POST',
    path: '/session/reset-password',
    body: PasswordResetInput,
    responses: { 200: dataOf(Session) },
    summary: 'Set a new password from a reset link',
    description:
      'Needs no session. The link (from the command line’s `users reset-password`) works once, for an hour; using it ends every other session of the user and signs them in. An unknown, used or expired link is a 400 BAD_REQUEST with `details.reason`.',
  },
  signIn: {
    method: 'POST',
    path: '/session/sign-in',
    body: SignInInput,
    responses: { 200: dataOf(Session) },
    summary: 'Sign in',
    description: 'Sets the session cookie. Attempts are rate-limited per email and per client address.',
  },
  signOut: {
    method: 'POST',
    path: '/session/sign-out',
    body: c.noBody(),
    responses: { 200: dataOf(z.object({ success: z.boolean() })) },
    summary: 'Sign out',
    description: 'Ends the session and clears its cookie.',
  },
  get: {
    method: 'GET',
    path: '/session',
    responses: { 200: dataOf(Session) },
    summary: 'The current session',
    description: 'The signed-in user, their teams and the CSRF token; 401 without a session.',
  },
});
