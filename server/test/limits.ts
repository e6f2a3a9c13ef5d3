import { QuotaExceededDetails } from '@webhook-scheduler/contract';
import { expect } from 'vitest';
import type { LimitOverrides } from '../src/limits/team-limits.rules.js';
import { setTeamLimits } from '../src/limits/team-limits.service.js';
import { expectError } from './expect.js';
import type { ApiResponse, TestApp, TestTeam } from './harness.js';

/** A new team of `app` with its own limits. */
export async function teamWithLimits(app: TestApp, overrides: LimitOverrides): Promise<TestTeam> {
  const team = await app.createTeam();
  await setTeamLimits(app.orm.em.fork(), team.teamId, overrides, new Date());
  return team;
}

/** A JSON string payload of exactly `bytes` bytes as compact JSON (its two quotes included). */
export const payloadOf = (bytes: number) => 'x'.repeat(bytes - 2);

/** Asserts a 403 QUOTA_EXCEEDED with exactly these details; returns the error. */
export function expectQuota(response: ApiResponse, details: QuotaExceededDetails) {
  const error = expectError(response, 403, 'QUOTA_EXCEEDED');
  expect(QuotaExceededDetails.strict().parse(error.details)).toEqual(details);
  return error;
}
