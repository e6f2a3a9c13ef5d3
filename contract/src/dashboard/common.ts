import { z } from 'zod';
import { ErrorBody, ErrorCode, Uuid } from '../common.js';

/**
 * The error codes of the dashboard routes: the API's five, and three the dashboard needs. The
 * `/api/v1` routes never answer with the three extra codes, so the SDK's `ErrorCode` is unchanged.
 */
export const DashboardErrorCode = z.enum([
  ...ErrorCode.options,
  'FORBIDDEN',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
]);
/** One of the dashboard's error codes. */
export type DashboardErrorCode = z.infer<typeof DashboardErrorCode>;

/** The body of every dashboard error response: the API's error shape with the dashboard's codes. */
export const DashboardErrorBody = z.object({
  error: ErrorBody.shape.error.extend({ code: DashboardErrorCode }),
});
/** The body of every dashboard error response. */
export type DashboardErrorBody = z.infer<typeof DashboardErrorBody>;

/** The header a session's state-changing requests carry its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** The header that selects which of the session user's teams an `/api/v1` call acts for. */
export const TEAM_HEADER = 'x-team-id';

/** A user's role in a team: owners also manage members and rotate the signing secret. */
export const TeamRole = z.enum(['owner', 'member']);
/** A user's role in a team. */
export type TeamRole = z.infer<typeof TeamRole>;

/** Path parameters of the routes under one team. */
export const TeamParams = z.object({ teamId: Uuid.describe('The team id (UUID).') });

/** An email address, trimmed and lower-cased: accounts are found case-insensitively. */
export const Email = z
  .string()
  .trim()
  .max(254, 'email must be at most 254 characters')
  .email('email must be an email address such as ada@example.com')
  .transform((value) => value.toLowerCase());

/** Bounds of a password chosen at sign-up. */
export const PASSWORD_LIMITS = { min: 8, max: 256 } as const;
