/** The longest a receiver's Retry-After holds back a team's calls to it (docs/reference/behaviour.md#retry-after). */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/**
 * When a receiver that answered `status` with `headers` asked to be called again: a 429 or 503 with
 * `Retry-After` in seconds or as an HTTP date (RFC 9110 §10.2.3), counted from `answeredAt` and
 * capped at an hour; null for any other answer, a missing or unreadable header, or a time passed.
 */
export function retryAfter(
  status: number | null,
  headers: Record<string, string> | null,
  answeredAt: Date,
): Date | null {
  if (status !== 429 && status !== 503) return null;
  const value = headers?.['retry-after']?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const date = Date.parse(value);
    // Only the HTTP date forms name a day of the week or GMT: anything else is not a date here.
    if (Number.isNaN(date) || !/GMT$|^[A-Za-z]{3},/.test(value)) return null;
    ms = date - answeredAt.getTime();
  }
  if (!(ms > 0)) return null;
  return new Date(answeredAt.getTime() + Math.min(ms, RETRY_AFTER_CAP_MS));
}
