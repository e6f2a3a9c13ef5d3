import type { Member } from '@webhook-scheduler/contract';

/** Why the user cannot leave the team, or undefined when they can. */
export function leaveBlocker(
  members: readonly Pick<Member, 'user_id' | 'role'>[],
  userId: string,
): string | undefined {
  const self = members.find((member) => member.user_id === userId);
  if (self?.role !== 'owner') return undefined;
  if (members.some((member) => member.role === 'owner' && member.user_id !== userId)) return undefined;
  return members.length === 1
    ? 'You are its only member and owner. A team keeps at least one owner, so it cannot be left.'
    : 'You are its only owner, and a team keeps at least one: add another owner before you leave.';
}
