import { BlockedTargetError } from './blocked-target-error.js';

interface CodedError extends Error {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

/** What went wrong, as stored in the outcome's `error`. */
export interface FailureText {
  error: string;
  /** The SSRF guard refused: the call can never succeed, so it is not retried. */
  permanent: boolean;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL']);
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_TLS|^ERR_SSL|^EPROTO$/;

// Errors arrive wrapped (undici's `cause`) or grouped (happy eyeballs' AggregateError): find the
// innermost one that says what happened.
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    if (current instanceof BlockedTargetError) return current;
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    else if (current instanceof Error && current.cause instanceof Error) current = current.cause;
    else return current;
  }
  return current;
}

/** Turns whatever the HTTP call threw into one human sentence. */
export function describeFailure(error: unknown, target: { hostname: string; port: number }): FailureText {
  const cause = rootCause(error);
  if (cause instanceof BlockedTargetError) return { error: cause.message, permanent: true };
  if (!(cause instanceof Error)) return transient(`request failed: ${String(cause)}`);
  const failure = cause as CodedError;
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  const address = typeof failure.address === 'string' ? failure.address : target.hostname;
  const port = typeof failure.port === 'number' ? failure.port : target.port;
  const where = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  if (code === 'ECONNREFUSED') return transient(`connection refused (ECONNREFUSED) to ${where}`);
  if (code === 'ECONNRESET') return transient(`connection reset (ECONNRESET) by ${where}`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return transient(`no route to ${where} (${code})`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return transient(`connect to ${where} timed out (${code})`);
  }
  if (code === undefined) return transient(`request failed: ${failure.message}`);
  if (DNS_CODES.has(code)) return transient(`DNS lookup failed for ${target.hostname} (${code})`);
  if (TLS_CODE.test(code)) return transient(`TLS handshake failed: ${failure.message} (${code})`);
  if (code === 'UND_ERR_SOCKET') {
    return transient(`connection closed by ${where} before the response was complete`);
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return transient('response headers exceed the size limit');
  return transient(`request failed: ${failure.message} (${code})`);
}

const transient = (error: string): FailureText => ({ error, permanent: false });
