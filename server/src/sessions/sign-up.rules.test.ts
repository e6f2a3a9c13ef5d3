import { describe, expect, it } from 'vitest';
import { signUpRefusal } from './sign-up.rules.js';

describe('signUpRefusal', () => {
  it.each([
    ['open', false, undefined],
    ['open', true, undefined],
    ['invite', true, undefined],
    ['invite', false, /by invitation only/],
    ['closed', false, /closed/],
    ['closed', true, /closed/],
  ] as const)('in %s mode with an invite: %s → %s', (mode, withInvite, refusal) => {
    const answer = signUpRefusal(mode, withInvite);
    if (refusal === undefined) expect(answer).toBeUndefined();
    else expect(answer).toMatch(refusal);
  });
});
