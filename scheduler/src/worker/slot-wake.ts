/**
 * Whether a slot's loop must ask when its next event falls due before it sleeps. It wakes at the
 * sooner of its next poll and half the look-ahead before that event. Its claim took every event due
 * within `takenMs` of now, so that wake is at least `takenMs - claimAheadMs / 2` away. When that is
 * a poll or more, and the slot lasts past the poll, the answer could not move the wake, and the
 * statement is not sent: at 500 deliveries/s it was one in five of the scheduler's (bench/README.md,
 * bench/steady-rate, 2026-12-01).
 */
export function nextDueMatters(
  takenMs: number,
  now: number,
  until: Date,
  options: { pollMs: number; claimAheadMs: number },
): boolean {
  const { pollMs, claimAheadMs } = options;
  return takenMs - claimAheadMs / 2 < pollMs || now + pollMs >= until.getTime();
}
