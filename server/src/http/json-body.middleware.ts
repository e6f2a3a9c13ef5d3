import type { ValidationIssue } from '@webhook-scheduler/contract';
import express, { type RequestHandler } from 'express';
import { ValidationError } from '../errors.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Deepest nesting of arrays and objects a body may have. Validation and serialization recurse, so a
 * deeper body (a 1 MB body can nest half a million levels) would exhaust the stack and answer 500.
 */
export const MAX_JSON_DEPTH = 64;

interface Node {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Node | undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * What the schemas cannot be trusted with in a parsed JSON body: nesting deeper than `maxDepth`,
 * and `__proto__` keys, which zod's records silently drop (a payload would be delivered altered).
 * Iterative, so it cannot overflow the stack itself.
 */
export function jsonBodyProblem(body: unknown, maxDepth: number): ValidationIssue | undefined {
  const stack: Node[] = [{ value: body, depth: 0, key: undefined, parent: undefined }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { value, depth } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxDepth) {
      return { path: pathOf(node).slice(0, 1), message: `must not nest deeper than ${maxDepth} levels` };
    }
    const isArray = Array.isArray(value);
    for (const [key, child] of Object.entries(value)) {
      if (key === '__proto__') {
        return { path: [...pathOf(node), key], message: 'the key "__proto__" is not accepted' };
      }
      stack.push({ value: child, depth: depth + 1, key: isArray ? Number(key) : key, parent: node });
    }
  }
  return undefined;
}

/** Parses JSON bodies up to `limitBytes`; a body of another content type is refused rather than ignored. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (WITH_BODY.has(req.method) && hasBody && !req.is('application/json')) {
      next(
        new ValidationError([
          {
            path: [],
            message: `Content-Type must be application/json (got ${req.get('content-type') ?? 'none'})`,
          },
        ]),
      );
      return;
    }
    next();
  };
  const checkShape: RequestHandler = (req, _res, next) => {
    const problem = jsonBodyProblem(req.body, MAX_JSON_DEPTH);
    next(problem ? new ValidationError([problem]) : undefined);
  };
  // Not `strict`: a body that is valid JSON but not an object (`null`, `"text"`, `42`) reaches the
  // schema, which says "must be a JSON object" instead of the parser's misleading "not valid JSON".
  return [requireJson, express.json({ limit: limitBytes, strict: false }), checkShape];
}
