import { describe, expect, it } from 'vitest';
import { linkRefusal, linkRefusalMessage } from './one-time-link.rules.js';

const now = new Date('2026-11-26T12:00:00Z');
const later = new Date('2026-11-26T13:00:00Z');
const earlier = new Date('2026-11-26T11:00:00Z');

describe('linkRefusal', () => {
  it.each([
    ['no link', undefined, 'unknown'],
    ['a link neither used nor expired', { usedAt: null, expiresAt: later }, undefined],
    ['a link that expires at this very moment', { usedAt: null, expiresAt: now }, 'expired'],
    ['an expired link', { usedAt: null, expiresAt: earlier }, 'expired'],
    ['a used link', { usedAt: earlier, expiresAt: later }, 'used'],
    ['a used link past its expiry', { usedAt: earlier, expiresAt: earlier }, 'used'],
  ] as const)('answers %s with %s', (_, link, reason) => {
    expect(linkRefusal(link, now)).toBe(reason);
  });
});

describe('linkRefusalMessage', () => {
  it('names the kind of link and what to do', () => {
    expect(linkRefusalMessage('invite link', 'used')).toBe(
      'This invite link was used already: each link works once, so ask for a new one.',
    );
    expect(linkRefusalMessage('password reset link', 'expired')).toBe(
      'This password reset link has expired: ask for a new one.',
    );
  });
});
