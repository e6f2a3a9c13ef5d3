import { describe, expect, it } from 'vitest';
import { inviteLink, tokenFromHash } from './link-token.js';

describe('tokenFromHash', () => {
  it.each([
    ['#abc_DEF-123', 'abc_DEF-123'],
    ['abc', 'abc'],
    ['#%61bc', 'abc'],
    ['#%E0%A4%A', '%E0%A4%A'],
    ['', ''],
  ])('reads %j as %j', (hash, token) => {
    expect(tokenFromHash(hash)).toBe(token);
  });

  it('reads back the token of an invite link', () => {
    const link = new URL(inviteLink('https://hooks.example.com', 'tok_en-1'));
    expect(link.pathname).toBe('/invite');
    expect(tokenFromHash(link.hash)).toBe('tok_en-1');
  });
});
