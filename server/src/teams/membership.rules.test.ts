import { describe, expect, it } from 'vitest';
import {
  addMemberRefusal,
  firstTeamName,
  ownerOnlyRefusal,
  removeMemberRefusal,
} from './membership.rules.js';

describe('ownerOnlyRefusal', () => {
  it('lets owners through and refuses members with FORBIDDEN', () => {
    expect(ownerOnlyRefusal('owner', 'rotate the signing secret')).toBeUndefined();
    expect(ownerOnlyRefusal('member', 'rotate the signing secret')).toEqual({
      code: 'FORBIDDEN',
      message: 'Only owners of this team can rotate the signing secret.',
    });
  });
});

describe('addMemberRefusal', () => {
  it('lets an owner add a user who is not a member', () => {
    expect(addMemberRefusal('owner', undefined)).toBeUndefined();
  });

  it('refuses a member with FORBIDDEN', () => {
    expect(addMemberRefusal('member', undefined)?.code).toBe('FORBIDDEN');
  });

  it.each(['owner', 'member'] as const)('refuses with CONFLICT when the user is already an %s', (role) => {
    expect(addMemberRefusal('owner', role)?.code).toBe('CONFLICT');
  });
});

describe('removeMemberRefusal', () => {
  const base = {
    actorId: 'a',
    actorRole: 'owner',
    targetId: 'b',
    targetRole: 'member',
    ownerCount: 1,
  } as const;

  it('lets an owner remove a member', () => {
    expect(removeMemberRefusal(base)).toBeUndefined();
  });

  it('lets an owner remove another owner while one remains', () => {
    expect(removeMemberRefusal({ ...base, targetRole: 'owner', ownerCount: 2 })).toBeUndefined();
  });

  it('lets a member leave', () => {
    expect(removeMemberRefusal({ ...base, actorRole: 'member', actorId: 'b' })).toBeUndefined();
  });

  it('refuses a member removing someone else with FORBIDDEN', () => {
    expect(removeMemberRefusal({ ...base, actorRole: 'member' })?.code).toBe('FORBIDDEN');
  });

  it('refuses removing the last owner, themselves included, with BAD_REQUEST', () => {
    expect(removeMemberRefusal({ ...base, targetRole: 'owner', ownerCount: 1 })?.code).toBe('BAD_REQUEST');
    expect(removeMemberRefusal({ ...base, targetId: 'a', targetRole: 'owner', ownerCount: 1 })?.code).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('firstTeamName', () => {
  it.each([
    ['ada@example.com', "ada's team"],
    ['@example.com', 'My team'],
    [`${'x'.repeat(240)}@example.com`, `${'x'.repeat(150)}'s team`],
  ])('names the first team of %s %j', (email, expected) => {
    expect(firstTeamName(email)).toBe(expected);
  });
});
