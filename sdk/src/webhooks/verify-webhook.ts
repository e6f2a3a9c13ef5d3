import type { AlertMessage } from '../contract-types.js';
import { WebhookVerificationError } from '../errors/webhook-verification-error.js';
import { alertMessageOf } from './alert-message.js';
import { bodyBytes, decodeBase64, timingSafeEqual } from './encoding.js';

/** Request headers as a `Headers` object (fetch, edge runtimes) or a plain object (Node's `req.headers`). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** What {@link verifyWebhook} needs. */
export interface VerifyWebhookOptions {
  /** The team's signing secret, `whsec_` followed by base64. */
  secret: string;
  /** The request's headers; names are matched case-insensitively. */
  headers: WebhookHeaders;
  /** The raw request body, exactly as received: not parsed and re-serialized JSON. */
  body: string | Uint8Array | ArrayBuffer;
  /** How far `webhook-timestamp` may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time; for tests. Default `new Date()`. */
  now?: Date;
}

/** A webhook whose signature matched. */
export interface VerifiedWebhook {
  /** `webhook-id`: the same for every retry of one delivery, so de-duplicate on it. */
  id: string;
  /** `webhook-timestamp`: when this attempt was signed. */
  timestamp: Date;
  /**
   * The body as an alert message when it is one, as the team's alert URL receives them, typed by its
   * `type` (`event.failed`, `cron.paused`, `destination.circuit_opened`, `destination.circuit_closed`);
   * null for any other body, such as a webhook's own payload.
   */
  alert: AlertMessage | null;
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

async function importKey(secret: string): Promise<CryptoKey> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = decodeBase64(encoded);
  if (!key || key.length === 0) {
    throw new TypeError('secret must be a signing secret of the form whsec_<base64>');
  }
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function checkTimestamp(value: string, now: Date, toleranceSeconds: number): Date {
  if (!/^\d{1,12}$/.test(value)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      'webhook-timestamp is not a Unix time in seconds',
    );
  }
  const seconds = Number(value);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (seconds < nowSeconds - toleranceSeconds) {
    throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is older than the tolerance');
  }
  if (seconds > nowSeconds + toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      'webhook-timestamp is further ahead than the tolerance',
    );
  }
  return new Date(seconds * 1000);
}

/** The `v1` signatures of a `webhook-signature` header; other versions and malformed entries are skipped. */
export function v1Signatures(header: string): Uint8Array[] {
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => decodeBase64(entry.slice(3)))
    .filter((signature) => signature !== undefined);
}

/**
 * Verifies a webhook the service sent, per Standard Webhooks: an HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the decoded secret, must match one of
 * the space-separated `v1,<base64>` entries of `webhook-signature` (several appear while a secret
 * is rotated), and the timestamp must be within `toleranceSeconds` of now.
 *
 * Uses Web Crypto only, so it runs in Node.js, Deno, Bun and edge runtimes.
 *
 * @returns the webhook's id and timestamp when the signature matches, and the body as an alert
 * message when it is one.
 * @throws {WebhookVerificationError} when it must not be trusted; `reason` says why.
 * @throws {TypeError} when `secret` is not of the form `whsec_<base64>` (a configuration error).
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<VerifiedWebhook> {
  const key = await importKey(options.secret);
  const id = header(options.headers, 'webhook-id');
  const timestampHeader = header(options.headers, 'webhook-timestamp');
  const signatureHeader = header(options.headers, 'webhook-signature');
  if (!id || !timestampHeader || !signatureHeader) {
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  const timestamp = checkTimestamp(
    timestampHeader,
    options.now ?? new Date(),
    options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
  );
  const prefix = new TextEncoder().encode(`${id}.${timestampHeader}.`);
  const body = bodyBytes(options.body);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  // Every candidate is compared, so the time taken does not reveal which one matched.
  const matches = v1Signatures(signatureHeader).map((signature) => timingSafeEqual(signature, expected));
  if (!matches.includes(true)) {
    throw new WebhookVerificationError(
      'invalid_signature',
      'no webhook-signature matches the secret and body',
    );
  }
  return { id, timestamp, alert: alertMessageOf(body) };
}
