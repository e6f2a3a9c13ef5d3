import type { TeamRole } from '@webhook-scheduler/contract';

/** Why an action on a team's members is refused, with the code it is answered with. */
export interface MembershipRefusal {
  code: 'FORBIDDEN' | 'CONFLICT' | 'BAD_REQUEST';
  message: string;
}

/** Owners manage members and the signing secret; members use everything else. */
export function ownerOnlyRefusal(role: TeamRole, action: string): MembershipRefusal | undefined {
  return role === 'owner'
    ? undefined
    : { code: 'FORBIDDEN', message: `Only owners of this team can ${action}.` };
}

export function addMemberRefusal(
  actorRole: TeamRole,
  existingRole: TeamRole | undefined,
): MembershipRefusal | undefined {
  const notOwner = ownerOnlyRefusal(actorRole, 'add members');
  if (notOwner) return notOwner;
  if (existingRole) return { code: 'CONFLICT', message: 'This user is already a member of the team.' };
  return undefined;
}

/** Who removes whom: owners remove anyone, members only themselves, and a team keeps an owner. */
export function removeMemberRefusal(removal: {
  actorId: string;
  actorRole: TeamRole;
  targetId: string;
  targetRole: TeamRole;
  ownerCount: number;
}): MembershipRefusal | undefined {
  if (removal.actorId !== removal.targetId) {
    const notOwner = ownerOnlyRefusal(removal.actorRole, 'remove other members');
    if (notOwner) return notOwner;
  }
  if (removal.targetRole === 'owner' && removal.ownerCount <= 1) {
    return {
      code: 'BAD_REQUEST',
      message: 'A team keeps at least one owner: make someone else owner first.',
    };
  }
  return undefined;
}

/** The name of the team a new user starts with: "ada's team" for ada@example.com. */
export function firstTeamName(email: string): string {
  const local = email.split('@')[0]?.trim() ?? '';
  return `${local === '' ? 'My' : `${local.slice(0, 150)}'s`} team`;
}
