import type { ErrorRequestHandler, RequestHandler } from 'express';
import { type ValidationIssue } from '@webhook-scheduler/contract';
import {
  AppError,
  NotFoundError,
  RateLimitedError,
  TooManyRequestsError,
  ValidationError,
} from '../errors.js';
import { NOT_UTF8 } from './json-body.middleware.js';
import { isUndecodablePath, undecodablePathError } from './undecodable-path.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  /** zlib's code when a compressed body does not inflate. */
  code?: string;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null;
}

/** What the body parser's failures mean to a client; undefined for anything else. */
function bodyParserError(error: unknown): AppError | undefined {
  if (!isBodyParserError(error)) return undefined;
  const issue = (message: string): ValidationIssue[] => [{ path: [], message }];
  // The parser passes zlib's error on as it is, with a status but no type.
  if (error.status === 400 && error.code?.startsWith('Z_')) {
    return new ValidationError(issue('request body does not match its Content-Encoding'));
  }
  switch (error.type ?? '') {
    case 'entity.parse.failed':
      return new ValidationError(issue('request body is not valid JSON'));
    case 'entity.too.large':
      return new ValidationError(
        issue(`request body is larger than the ${error.limit ?? ''} byte limit`),
        413,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ValidationError(issue('request body must be UTF-8 JSON without content encoding'));
    case NOT_UTF8:
      return new ValidationError(issue('request body is not valid UTF-8'));
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ValidationError(issue('request body could not be read'));
    default:
      return undefined;
  }
}

/** Unknown routes answer 404 NOT_FOUND in the error shape. */
export const notFound: RequestHandler = (_req, _res, next) => next(new NotFoundError('Route'));

/** The one error middleware: known errors answer with their code; anything else is logged and a fixed 500. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const known =
    error instanceof AppError
      ? error
      : isUndecodablePath(error)
        ? undecodablePathError(req.method, req.path)
        : bodyParserError(error);
  if (known) {
    if (known.status >= 500) req.log.warn({ code: known.code, message: known.message }, 'request failed');
    // RFC 9110 §11.6.1: a 401 must name the scheme the client should authenticate with. The
    // dashboard's session cookie has no registered scheme, so only the API names Bearer.
    if (known.code === 'UNAUTHORIZED' && req.path.startsWith('/api/v1/'))
      res.setHeader('www-authenticate', 'Bearer');
    if (known instanceof TooManyRequestsError || known instanceof RateLimitedError)
      res.setHeader('retry-after', String(known.retryAfterS));
    res.status(known.status).json(known.toBody());
    return;
  }
  req.log.error({ err: error }, 'unexpected error');
  if (res.headersSent) return;
  res.status(500).json(new AppError('INTERNAL_SERVER_ERROR', 'Internal server error').toBody());
};
