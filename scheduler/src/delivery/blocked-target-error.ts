/**
 * What a refused call records. Generic on purpose: naming the address a hostname resolved to
 * would let a team map the service's internal network through its events' `response_error`.
 */
export const BLOCKED_TARGET_MESSAGE =
  'blocked: the target resolves to a non-public address (an operator can allow it with WEBHOOK_ALLOWED_HOSTS)';

/** A call the SSRF guard refused: delivering it again cannot succeed, so it is never retried. */
export class BlockedTargetError extends Error {
  override readonly name = 'BlockedTargetError';
  readonly code = 'E_WEBHOOK_BLOCKED_TARGET';

  constructor() {
    super(BLOCKED_TARGET_MESSAGE);
  }
}
