import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_CAP_MS, retryAfter } from './retry-after.rules.js';

const at = new Date('2026-11-26T12:00:00.000Z');
const header = (value: string) => ({ 'retry-after': value });

describe('retryAfter', () => {
  it.each([
    [429, '60', '2026-11-26T12:01:00.000Z'],
    [503, '0', null],
    [429, ' 5 ', '2026-11-26T12:00:05.000Z'],
    [429, 'Thu, 26 Nov 2026 12:00:30 GMT', '2026-11-26T12:00:30.000Z'],
    [503, 'Thursday, 26-Nov-26 12:10:00 GMT', '2026-11-26T12:10:00.000Z'],
    [429, 'Thu, 26 Nov 2026 11:59:00 GMT', null],
    [429, '7200', new Date(at.getTime() + RETRY_AFTER_CAP_MS).toISOString()],
    [429, 'Fri, 27 Nov 2026 12:00:00 GMT', new Date(at.getTime() + RETRY_AFTER_CAP_MS).toISOString()],
    [429, '1.5', null],
    [429, '-3', null],
    [429, 'soon', null],
    [429, '2026-11-26', null],
    [500, '60', null],
    [200, '60', null],
    [301, '60', null],
  ])('reads a %i with Retry-After "%s" as %s', (status, value, expected) => {
    expect(retryAfter(status, header(value), at)?.toISOString() ?? null).toBe(expected);
  });

  it('is null without the header or without a response', () => {
    expect(retryAfter(429, {}, at)).toBeNull();
    expect(retryAfter(429, null, at)).toBeNull();
    expect(retryAfter(null, header('60'), at)).toBeNull();
  });
});
