import express, { type RequestHandler } from 'express';
import { ValidationError } from '../errors.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Deepest nesting of arrays and objects a body may have. Validation and serialization recurse, so a
 * deeper body (a 1 MB body can nest half a million levels) would exhaust the stack and answer 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max` levels; iterative, so it cannot overflow the stack itself. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [current, depth] = entry;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
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
  const limitDepth: RequestHandler = (req, _res, next) => {
    if (!nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
      next();
      return;
    }
    next(
      new ValidationError([
        { path: [], message: `request body must not nest deeper than ${MAX_JSON_DEPTH} levels` },
      ]),
    );
  };
  // Not `strict`: a body that is valid JSON but not an object (`null`, `"text"`, `42`) reaches the
  // schema, which says "must be a JSON object" instead of the parser's misleading "not valid JSON".
  return [requireJson, express.json({ limit: limitBytes, strict: false }), limitDepth];
}
