/** When retention keeps or deletes a finished chain: pure, `now` passed in. */

/**
 * The instant before which a finished chain's last attempt must have ended for it to be deleted, or
 * null when nothing is deleted (`0` keeps events forever). A chain that ended exactly `retentionMs`
 * ago is not older than the retention, so it stays.
 */
export function retentionCutoff(now: Date, retentionMs: number): Date | null {
  if (retentionMs <= 0) return null;
  return new Date(now.getTime() - retentionMs);
}
