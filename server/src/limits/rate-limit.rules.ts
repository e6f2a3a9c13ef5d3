/** A token bucket: `tokens` as of `at` (ms). */
export interface Bucket {
  tokens: number;
  at: number;
}

/** A key's limit as one process applies it: its share of the key's rate and burst. */
export interface Allowance {
  /** Requests per second for the whole key, across every API process. */
  rate: number;
  /** Requests the whole key may make at once. */
  burst: number;
  /** How many API processes share the key's allowance (each takes an equal share). */
  processes: number;
}

/** What one request is told: whether it may go on, and the RateLimit header values. */
export interface Verdict {
  allowed: boolean;
  /** RateLimit-Limit: the key's requests per second. */
  limit: number;
  /** RateLimit-Remaining: requests the key may still make now, across the processes. */
  remaining: number;
  /** RateLimit-Reset: whole seconds until the allowance is full again. */
  resetS: number;
  /** Retry-After on a refusal: whole seconds until one more request is allowed (at least 1). */
  retryAfterS: number;
}

/**
 * Takes one request from the bucket (refilled at this process's share of the rate, up to its
 * share of the burst). A refused request takes nothing. Pure: returns the new bucket.
 */
export function takeToken(
  bucket: Bucket | undefined,
  allowance: Allowance,
  now: number,
): { bucket: Bucket; verdict: Verdict } {
  const share = Math.max(1, allowance.processes);
  const rate = allowance.rate / share;
  const capacity = Math.max(1, allowance.burst / share);
  const elapsedS = bucket ? Math.max(0, now - bucket.at) / 1000 : 0;
  const available = Math.min(capacity, bucket ? bucket.tokens + elapsedS * rate : capacity);
  const allowed = available >= 1;
  const tokens = allowed ? available - 1 : available;
  return {
    bucket: { tokens, at: now },
    verdict: {
      allowed,
      limit: allowance.rate,
      remaining: Math.max(0, Math.floor(tokens * share)),
      resetS: Math.ceil((capacity - tokens) / rate),
      retryAfterS: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate)),
    },
  };
}

/** The bucket is full again by `now`: forgetting it changes nothing. */
export function isIdle(bucket: Bucket, allowance: Allowance, now: number): boolean {
  const share = Math.max(1, allowance.processes);
  const refilled = bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * (allowance.rate / share);
  return refilled >= allowance.burst / share;
}
