import { describe, expect, it } from 'vitest';
import { describeCron } from './cron-reading.js';

describe('describeCron', () => {
  it.each([
    ['*/5 * * * *', 'Every 5 minutes'],
    ['0 9 * * MON-FRI', 'At 09:00, Monday through Friday'],
    ['0 18 LW * *', 'At 18:00, on the last weekday of the month'],
    ['*/10 * * * * *', 'Every 10 seconds'],
    ['0 0 * * 7', 'At 00:00, only on Sunday'],
    ['@midnight', 'At 00:00'],
    ['@hourly', 'Every hour'],
    ['0 12 * * FRI#2', 'At 12:00, on the second Friday of the month'],
  ])('words %s as %j', (expression, words) => {
    expect(describeCron(expression)).toBe(words);
  });

  it.each(['61 * * * *', '', '@reboot', '0 9 * * FUNDAY', 'H * * * *'])(
    'words nothing for %j',
    (expression) => {
      expect(describeCron(expression)).toBeUndefined();
    },
  );
});
