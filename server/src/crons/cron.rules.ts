import type { ParsedCronInput, ValidationIssue } from '@webhook-scheduler/contract';
import { cronProblem } from '@webhook-scheduler/scheduler';

/** Field problems the contract's schema cannot see: the cron expression must parse and fire. */
export function cronInputIssues(input: ParsedCronInput): ValidationIssue[] {
  const problem = cronProblem(input.cron_expression);
  return problem ? [{ path: ['cron_expression'], message: `invalid cron expression: ${problem}` }] : [];
}
