import type { RequestValidationError } from '@ts-rest/express';
import type { ValidationIssue } from '@webhook-scheduler/contract';
import type { ZodError, ZodIssue } from 'zod';
import { ValidationError } from '../errors.js';

type Root = 'body' | 'query' | 'params' | 'headers';

function issuesOf(error: ZodError | null, root: Root): ValidationIssue[] {
  if (!error) return [];
  return error.issues.flatMap((issue) => toIssues(issue, root));
}

function toIssues(issue: ZodIssue, root: Root): ValidationIssue[] {
  if (issue.code === 'unrecognized_keys') {
    const noun = root === 'query' ? 'query parameter' : 'field';
    return issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown ${noun} "${key}"` }));
  }
  if (root === 'body' && issue.path.length === 0 && issue.code === 'invalid_type') {
    return [{ path: [], message: `request body must be a JSON object (got ${issue.received})` }];
  }
  return [{ path: issue.path, message: issue.message }];
}

/**
 * Maps ts-rest's request validation failure to one VALIDATION_ERROR listing every problem: the
 * contract's, then the route's business rules (`ruleIssues`) on the fields the contract let pass.
 */
export function toValidationError(
  error: RequestValidationError,
  ruleIssues: readonly ValidationIssue[] = [],
): ValidationError {
  const issues = [
    ...issuesOf(error.pathParams, 'params'),
    ...issuesOf(error.headers, 'headers'),
    ...issuesOf(error.query, 'query'),
    ...issuesOf(error.body, 'body'),
  ];
  const blamed = new Set(issues.map((issue) => issue.path.join('.')));
  return new ValidationError([...issues, ...ruleIssues.filter((issue) => !blamed.has(issue.path.join('.')))]);
}
