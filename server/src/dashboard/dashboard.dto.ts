import type {
  ApiKey as ApiKeyDto,
  Invite,
  Member,
  MyTeam,
  SigningSecret,
  User as UserDto,
} from '@webhook-scheduler/contract';
import type { InviteView } from '../teams/invites.service.js';
import type { ApiKeyView } from '../teams/api-key-store.js';
import type { MemberRow, MyTeamRow } from '../teams/member-store.js';
import type { SigningSecrets } from '../teams/teams.service.js';
import type { UserView } from '../users/user-store.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toUserDto(user: UserView): UserDto {
  return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
}

export function toMyTeamDto(team: MyTeamRow): MyTeam {
  return { id: team.id, name: team.name, role: team.role, created_at: team.createdAt.toISOString() };
}

export function toMemberDto(member: MemberRow): Member {
  return {
    user_id: member.userId,
    email: member.email,
    role: member.role,
    joined_at: member.joinedAt.toISOString(),
  };
}

export function toApiKeyDto(key: ApiKeyView): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
  };
}

export function toSigningSecretDto(secrets: SigningSecrets): SigningSecret {
  return {
    secret: secrets.current,
    previous_secret: secrets.previous?.secret ?? null,
    previous_expires_at: iso(secrets.previous?.expiresAt ?? null),
  };
}

export function toInviteDto(invite: InviteView): Invite {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    created_at: invite.createdAt.toISOString(),
    expires_at: invite.expiresAt.toISOString(),
    invited_by: invite.invitedBy,
  };
}
