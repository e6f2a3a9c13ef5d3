import { describe, expect, it } from 'vitest';
import { decodeBase64, timingSafeEqual } from './encoding.js';

describe('decodeBase64', () => {
  it('decodes padded standard base64', () => {
    expect(decodeBase64('aGk=')).toEqual(new Uint8Array([104, 105]));
  });

  it.each(['aGk', 'a Gk=', 'aG-k', 'aGk=='])('refuses %j', (text) => {
    expect(decodeBase64(text)).toBeUndefined();
  });

  it('decodes every byte value as Node does', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(decodeBase64(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
  });
});

describe('timingSafeEqual', () => {
  it.each([
    [[1, 2, 3], [1, 2, 3], true],
    [[1, 2, 3], [1, 2, 4], false],
    [[1, 2, 3], [1, 2], false],
    [[], [], true],
  ])('%o and %o → %s', (a, b, expected) => {
    expect(timingSafeEqual(new Uint8Array(a), new Uint8Array(b))).toBe(expected);
  });
});
