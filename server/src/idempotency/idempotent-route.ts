import type { EntityManager } from '@mikro-orm/postgresql';
import { ErrorBody, REPLAYED_HEADER } from '@webhook-scheduler/contract';
import type { Request, Response } from 'express';
import { AppError } from '../errors.js';
import { teamOf } from '../http/deps.js';
import { requestFingerprint } from './idempotency.rules.js';
import { type Answer, runOnce } from './idempotency.service.js';

/**
 * A create route's answer, at most once per `Idempotency-Key`; a replayed answer (success or 4xx)
 * carries `Idempotent-Replayed: true`.
 */
export async function answerOnce<Status extends number, Body>(
  em: EntityManager,
  { req, res, key, now }: { req: Request; res: Response; key: string | undefined; now: Date },
  work: (tx: EntityManager) => Promise<{ status: Status; body: Body }>,
): Promise<{ status: Status; body: Body }> {
  const request = {
    teamId: teamOf(req),
    key,
    // Only a keyed request is ever compared with another.
    fingerprint: key === undefined ? '' : requestFingerprint(req.method, req.baseUrl + req.path, req.body),
    now,
  };
  const answer = await runOnce(em, request, work);
  if (answer.replayed) res.setHeader(REPLAYED_HEADER, 'true');
  if (answer.status >= 400) throw answer.error ?? errorOf(answer);
  // A remembered success is the one status this route creates with.
  return { status: answer.status as Status, body: answer.body };
}

/** A remembered 4xx, raised again with its status and body. */
function errorOf(answer: Answer<unknown>): AppError {
  const parsed = ErrorBody.safeParse(answer.body);
  if (!parsed.success) return new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
  const { code, message, details } = parsed.data.error;
  return new AppError(code, message, details, answer.status);
}
