import { describe, expect, it } from 'vitest';
import { leaveBlocker } from './membership.js';

const owner = (user_id: string) => ({ user_id, role: 'owner' as const });
const member = (user_id: string) => ({ user_id, role: 'member' as const });

describe('leaveBlocker', () => {
  it('lets a member leave', () => {
    expect(leaveBlocker([owner('a'), member('me')], 'me')).toBeUndefined();
  });

  it('lets an owner leave when another owner stays', () => {
    expect(leaveBlocker([owner('me'), owner('b'), member('c')], 'me')).toBeUndefined();
  });

  it('keeps the only owner of a team with members, saying to add another owner first', () => {
    expect(leaveBlocker([owner('me'), member('b')], 'me')).toMatch(/only owner.*add another owner/);
  });

  it('keeps the only member of a team', () => {
    expect(leaveBlocker([owner('me')], 'me')).toMatch(/only member and owner/);
  });
});
