import { type InferEntity, defineEntity, p } from '@mikro-orm/core';
import type { TeamRole } from '@webhook-scheduler/contract';

export const TeamMemberSchema = defineEntity({
  name: 'TeamMember',
  tableName: 'team_members',
  properties: {
    teamId: p.uuid().primary(),
    userId: p.uuid().primary(),
    role: p.text().$type<TeamRole>(),
    createdAt: p.datetime(),
  },
});
export type TeamMember = InferEntity<typeof TeamMemberSchema>;
