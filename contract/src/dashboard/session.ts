import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, dataOf } from '../common.js';
import { Email, PASSWORD_LIMITS, TeamRole } from './common.js';

const c = initContract();

/** The body of sign-up: an email and a new password. */
export const SignUpInput = z
  .object({
    email: Email,
    password: z
      .string()
      .min(PASSWORD_LIMITS.min, `password must be at least ${PASSWORD_LIMITS.min} characters`)
      .max(PASSWORD_LIMITS.max, `password must be at most ${PASSWORD_LIMITS.max} characters`),
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

/** Sign-up, sign-in, sign-out and the current session. */
export const sessionContract = c.router({
  signUp: {
    method: 'POST',
    path: '/session/sign-up',
    body: SignUpInput,
    responses: { 201: dataOf(Session) },
    summary: 'Sign up',
    description: 'Creates a user with a first team they own, and signs them in (sets the session cookie).',
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
