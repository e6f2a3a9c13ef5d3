/** The most of a lease's grace kept back for recording the outcome after the call has ended. */
const RECORD_MARGIN_MS = 5000;

/**
 * What one claim allows this process, on its monotonic clock (`performance.now()`). The database
 * starts the lease when it runs the claim, which is never before the claim was sent, so deadlines
 * counted from the moment of sending cannot outlast the lease, however long the process stalled.
 */
export interface LeaseWindow {
  /** The liveness epoch the claim was made under; a later epoch means others may have taken it. */
  epoch: number;
  /** Last moment a call may start: started by then, it ends (timeout included) inside the lease. */
  sendBy: number;
  /** The lease's end: an outcome not written by then is left to be re-delivered. */
  recordBy: number;
}

/** The window of a claim sent at `claimSentAt` for `leaseMs`, whose calls last at most `timeoutMs`. */
export function leaseWindow(
  claimSentAt: number,
  epoch: number,
  { leaseMs, timeoutMs }: { leaseMs: number; timeoutMs: number },
): LeaseWindow {
  const grace = Math.max(0, leaseMs - timeoutMs);
  const margin = Math.min(RECORD_MARGIN_MS, grace / 2);
  return { epoch, sendBy: claimSentAt + grace - margin, recordBy: claimSentAt + leaseMs };
}
