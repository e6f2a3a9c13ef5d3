import { describe, expect, it } from 'vitest';
import { NEVER_PAUSES, failureStreak, pausesCron } from './cron-health.rules.js';

describe('failureStreak', () => {
  it.each([
    { previous: 0, succeeded: false, failuresSinceSuccess: 1, streak: 1 },
    { previous: 2, succeeded: false, failuresSinceSuccess: 1, streak: 3 },
    { previous: 2, succeeded: false, failuresSinceSuccess: 3, streak: 5 },
    { previous: 7, succeeded: true, failuresSinceSuccess: 0, streak: 0 },
    { previous: 7, succeeded: true, failuresSinceSuccess: 2, streak: 2 },
  ])(
    'is $streak after $previous when the batch succeeded: $succeeded with $failuresSinceSuccess failures after',
    ({ previous, succeeded, failuresSinceSuccess, streak }) => {
      expect(failureStreak(previous, { succeeded, failuresSinceSuccess })).toBe(streak);
    },
  );
});

describe('pausesCron', () => {
  it.each([
    { isActive: true, pauseAfterFailures: 3, streak: 2, pauses: false },
    { isActive: true, pauseAfterFailures: 3, streak: 3, pauses: true },
    { isActive: true, pauseAfterFailures: 3, streak: 4, pauses: true },
    { isActive: true, pauseAfterFailures: 1, streak: 1, pauses: true },
    { isActive: false, pauseAfterFailures: 3, streak: 5, pauses: false },
    { isActive: true, pauseAfterFailures: null, streak: 1_000_000, pauses: false },
  ])(
    'is $pauses for a streak of $streak when active: $isActive with a threshold of $pauseAfterFailures',
    ({ isActive, pauseAfterFailures, streak, pauses }) => {
      expect(pausesCron({ isActive, pauseAfterFailures }, streak)).toBe(pauses);
    },
  );

  it('never pauses a cron without a threshold, however long its streak', () => {
    expect(pausesCron({ isActive: true, pauseAfterFailures: null }, NEVER_PAUSES - 1)).toBe(false);
  });
});
