/** A call the SSRF guard refused: delivering it again cannot succeed, so it is never retried. */
export class BlockedTargetError extends Error {
  override readonly name = 'BlockedTargetError';
  readonly code = 'E_WEBHOOK_BLOCKED_TARGET';

  constructor(reason: string) {
    super(`blocked: ${reason}; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true or list it in WEBHOOK_ALLOWED_HOSTS`);
  }
}
