import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../shared/raw-query.js';
import { AppError, QuotaExceededError } from '../errors.js';
import { withinQuotas } from '../limits/quota-at-commit.js';
import { IDEMPOTENCY_TTL_MS, isRemembered, lockIdOf } from './idempotency.rules.js';

/** What a route answers: its status and body. */
export interface Answer<Body> {
  status: number;
  body: Body;
}

/** A create with its key, as the route received it. */
export interface KeyedRequest {
  teamId: string;
  /** The `Idempotency-Key`; without one the create simply runs. */
  key: string | undefined;
  /** {@link requestFingerprint} of the request. */
  fingerprint: string;
  now: Date;
}

interface Seen {
  request_hash: string;
  response_status: number;
  response_body: string;
}

/** An answer, whether it was replayed, and for a 4xx first given now, the error to raise. */
export type Handled<Body> = Answer<Body> & { replayed: boolean; error?: AppError };

/**
 * Runs a create at most once per key. In one transaction: the key's advisory lock (held elsewhere →
 * 409 IDEMPOTENCY_KEY_IN_USE), the remembered answer (another body → 422 IDEMPOTENCY_KEY_MISMATCH;
 * the same → that answer, replayed), or the work, in a savepoint, and its answer recorded — so the
 * record commits with what it protects, or neither does. A 4xx is remembered and returned (with its
 * error when first given); any other failure rolls everything back and may be retried.
 */
export async function runOnce<Body>(
  em: EntityManager,
  request: KeyedRequest,
  work: (tx: EntityManager) => Promise<Answer<Body>>,
): Promise<Handled<Body>> {
  const { key } = request;
  if (key === undefined) return { ...(await work(em)), replayed: false };
  try {
    return await withinQuotas(em, (writer) =>
      writer.transactional(async (tx): Promise<Handled<Body>> => {
        if (!(await lockKey(tx, request, key))) {
          throw new AppError(
            'IDEMPOTENCY_KEY_IN_USE',
            'A request with this Idempotency-Key is still being handled; retry once it has finished',
          );
        }
        const seen = await findAnswer(tx, request.teamId, key, request.now);
        if (seen) return replay<Body>(seen, request.fingerprint);
        const answer = await attempt(tx, work);
        await remember(tx, request, key, answer);
        return { ...answer, replayed: false };
      }),
    );
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    return rememberRefusal<Body>(em, request, key, error);
  }
}

async function lockKey(tx: EntityManager, request: KeyedRequest, key: string): Promise<boolean> {
  const [lock] = await rawQuery<{ locked: boolean }>(
    tx,
    'select pg_try_advisory_xact_lock($1::bigint) as locked',
    [lockIdOf(request.teamId, key)],
  );
  return lock?.locked === true;
}

/**
 * Team quotas are checked as the transaction commits (limits/quota-at-commit.ts), after the answer
 * was recorded in it, so a refusal rolled the record back with the work: the 403 is recorded on its
 * own, unless another request with the key holds it or has answered meanwhile.
 */
async function rememberRefusal<Body>(
  em: EntityManager,
  request: KeyedRequest,
  key: string,
  error: QuotaExceededError,
): Promise<Handled<Body>> {
  const answer = { status: error.status, body: error.toBody() as Body };
  await em.transactional(async (tx) => {
    if (!(await lockKey(tx, request, key))) return;
    if (await findAnswer(tx, request.teamId, key, request.now)) return;
    await remember(tx, request, key, answer);
  });
  return { ...answer, replayed: false, error };
}

async function findAnswer(
  tx: EntityManager,
  teamId: string,
  key: string,
  now: Date,
): Promise<Seen | undefined> {
  const [seen] = await rawQuery<Seen>(
    tx,
    `select request_hash, response_status, response_body from idempotency_keys
     where team_id = $1 and key = $2 and expires_at > $3`,
    [teamId, key, now],
  );
  return seen;
}

function replay<Body>(seen: Seen, fingerprint: string): Handled<Body> {
  if (seen.request_hash !== fingerprint) {
    throw new AppError(
      'IDEMPOTENCY_KEY_MISMATCH',
      'This Idempotency-Key was used with a different request body; use a new key for a new request',
    );
  }
  return { status: seen.response_status, body: JSON.parse(seen.response_body) as Body, replayed: true };
}

/** The work in a savepoint: a 4xx it throws becomes its answer, with nothing it wrote kept. */
async function attempt<Body>(
  tx: EntityManager,
  work: (tx: EntityManager) => Promise<Answer<Body>>,
): Promise<Handled<Body>> {
  try {
    return { ...(await tx.transactional(work)), replayed: false };
  } catch (error) {
    if (!(error instanceof AppError) || !isRemembered(error.status)) throw error;
    return { status: error.status, body: error.toBody() as Body, replayed: false, error };
  }
}

/**
 * Records the answer, replacing an expired record of the key (the background sweep deletes the
 * others, {@link deleteExpiredKeys}).
 */
async function remember<Body>(
  tx: EntityManager,
  request: KeyedRequest,
  key: string,
  answer: Answer<Body>,
): Promise<void> {
  const expiresAt = new Date(request.now.getTime() + IDEMPOTENCY_TTL_MS);
  await rawQuery(
    tx,
    `insert into idempotency_keys (team_id, key, request_hash, response_status, response_body, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (team_id, key) do update
       set request_hash = excluded.request_hash, response_status = excluded.response_status,
           response_body = excluded.response_body, created_at = excluded.created_at,
           expires_at = excluded.expires_at`,
    [
      request.teamId,
      key,
      request.fingerprint,
      answer.status,
      JSON.stringify(answer.body),
      request.now,
      expiresAt,
    ],
  );
}

/**
 * Deletes up to `rows` records of any team that expired at or before `now`, oldest first (through
 * the expiry index); returns how many went. A record a create holds (it is replacing it) is skipped,
 * not waited for. Deleted by tuple ids, which the row locks keep stable.
 */
export async function deleteExpiredKeys(em: EntityManager, now: Date, rows: number): Promise<number> {
  const [row] = await rawQuery<{ deleted: number }>(
    em,
    `with expired as (
       select ctid as tid from idempotency_keys where expires_at <= $1
       order by expires_at limit $2
       for update skip locked
     ), deleted as (
       delete from idempotency_keys where ctid = any(array(select tid from expired)) returning 1
     )
     select count(*)::int as deleted from deleted`,
    [now, rows],
  );
  return row?.deleted ?? 0;
}
