import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler } from 'express';
import { ValidationError } from '../errors.js';
import {
  MAX_JSON_DEPTH,
  jsonBodyProblem,
  markChangedNumbers,
  mayHoldChangedNumbers,
} from './json-body.rules.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The body parser's error type for a body that is not UTF-8; the error middleware maps it to a 400. */
export const NOT_UTF8 = 'entity.not.utf8';

/** Texts of the bodies that may hold numbers JSON.parse changed, to be parsed again with a reviver. */
const suspectTexts = new WeakMap<IncomingMessage, string>();

/**
 * Runs on the raw bytes before they are parsed. Invalid UTF-8 would be decoded into U+FFFD and
 * stored altered, so it is refused (RFC 8259 §8.1: JSON between systems is UTF-8).
 */
function inspectRawBody(req: IncomingMessage, _res: unknown, raw: Buffer, encoding: string): void {
  if (encoding !== 'utf-8' || !isUtf8(raw)) throw Object.assign(new Error('not UTF-8'), { type: NOT_UTF8 });
  const text = raw.toString('utf8');
  if (mayHoldChangedNumbers(text)) suspectTexts.set(req, text.replace(/^\uFEFF/, ''));
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
    const suspect = suspectTexts.get(req);
    // Parsed again only when cheap signs say a number may have been rounded, overflowed or underflowed:
    // a reviver makes JSON.parse several times slower.
    const body: unknown = suspect === undefined ? req.body : JSON.parse(suspect, markChangedNumbers);
    const problem = jsonBodyProblem(body, MAX_JSON_DEPTH);
    next(problem ? new ValidationError([problem]) : undefined);
  };
  // Not `strict`: a body that is valid JSON but not an object (`null`, `"text"`, `42`) reaches the
  // schema, which says "must be a JSON object" instead of the parser's misleading "not valid JSON".
  return [
    requireJson,
    express.json({ limit: limitBytes, strict: false, verify: inspectRawBody }),
    checkShape,
  ];
}

/**
 * Refuses a body whose Content-Length is above `limitBytes` at once, and closes the connection
 * after the 413, so that none of it is read. The body parser would answer the same 413 only after
 * reading the whole body and throwing it away. A body sent without a Content-Length is cut by the
 * parser's own limit.
 */
function refuseAnnouncedOver(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    if (Number(req.get('content-length') ?? 0) <= limitBytes) {
      next();
      return;
    }
    res.setHeader('connection', 'close');
    const message = `request body is larger than the ${limitBytes} byte limit`;
    next(new ValidationError([{ path: [], message }], 413));
  };
}

/**
 * {@link jsonBody} at `smallBytes` for the requests `isSmall` picks (refused from their
 * Content-Length when above it, before a byte is read), at `limitBytes` for the others.
 */
export function jsonBodyBySize(
  isSmall: (req: Request) => boolean,
  smallBytes: number,
  limitBytes: number,
): RequestHandler {
  const small = express.Router().use(refuseAnnouncedOver(smallBytes), jsonBody(smallBytes));
  const other = express.Router().use(jsonBody(limitBytes));
  return (req, res, next) => (isSmall(req) ? small : other)(req, res, next);
}
