import express, { type RequestHandler } from 'express';
import { ValidationError } from '../errors.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

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
  return [requireJson, express.json({ limit: limitBytes, strict: true })];
}
