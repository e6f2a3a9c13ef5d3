import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamRole } from '@webhook-scheduler/contract';
import { asDate, placeholders, rawQuery } from '../shared/raw-query.js';
import { emailOfUser } from '../users/user-fragments.js';

/** The `team_members` table, in bound SQL like every statement on it. */

/** A membership as stored. */
export interface TeamMember {
  teamId: string;
  userId: string;
  role: TeamRole;
  createdAt: Date;
}

interface MemberRecord {
  team_id: string;
  user_id: string;
  role: TeamRole;
  created_at: Date | string;
}

const COLUMNS = [
  'team_id',
  'user_id',
  'role',
  'created_at',
] as const satisfies readonly (keyof MemberRecord)[];

const MEMBER_COLUMNS = COLUMNS.join(', ');

const toMember = (row: MemberRecord): TeamMember => ({
  teamId: row.team_id,
  userId: row.user_id,
  role: row.role,
  createdAt: asDate(row.created_at),
});

/** A team as its member sees it. */
export interface MyTeamRow {
  id: string;
  name: string;
  role: TeamRole;
  createdAt: Date;
}

/** A member as the team sees them. */
export interface MemberRow {
  userId: string;
  email: string;
  role: TeamRole;
  joinedAt: Date;
}

export async function insertMember(em: EntityManager, member: TeamMember): Promise<void> {
  const sql = `insert into team_members (${MEMBER_COLUMNS}) values (${placeholders(COLUMNS.length)})`;
  await rawQuery(em, sql, [member.teamId, member.userId, member.role, member.createdAt]);
}

/** The user's membership of the team; undefined when they are not in it. */
export async function findMember(
  em: EntityManager,
  teamId: string,
  userId: string,
): Promise<TeamMember | undefined> {
  const [row] = await rawQuery<MemberRecord>(
    em,
    `select ${MEMBER_COLUMNS} from team_members where team_id = $1 and user_id = $2`,
    [teamId, userId],
  );
  return row && toMember(row);
}

/** The user's role in the team, or undefined when they are not in it. */
export async function memberRole(
  em: EntityManager,
  userId: string,
  teamId: string,
): Promise<TeamRole | undefined> {
  return (await findMember(em, teamId, userId))?.role;
}

export async function setMemberRole(
  em: EntityManager,
  teamId: string,
  userId: string,
  role: TeamRole,
): Promise<void> {
  await rawQuery(em, 'update team_members set role = $3 where team_id = $1 and user_id = $2', [
    teamId,
    userId,
    role,
  ]);
}

export async function deleteMember(em: EntityManager, teamId: string, userId: string): Promise<void> {
  await rawQuery(em, 'delete from team_members where team_id = $1 and user_id = $2', [teamId, userId]);
}

/** How many teams the user belongs to. */
export async function countTeamsOf(em: EntityManager, userId: string): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    'select count(*) as count from team_members where user_id = $1',
    [userId],
  );
  return Number(row?.count ?? 0);
}

/** How many owners the team has. */
export async function countOwners(em: EntityManager, teamId: string): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from team_members where team_id = $1 and role = 'owner'`,
    [teamId],
  );
  return Number(row?.count ?? 0);
}

/** The teams the user belongs to, oldest first (the id breaks ties). */
export async function listMyTeams(em: EntityManager, userId: string): Promise<MyTeamRow[]> {
  const rows = await rawQuery<{ id: string; name: string; role: TeamRole; created_at: string }>(
    em,
    `select t.id, t.name, m.role, t.created_at from team_members m join teams t on t.id = m.team_id
     where m.user_id = $1 order by t.created_at, t.id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    createdAt: asDate(row.created_at),
  }));
}

/** The team's members: owners first, then by when they joined (the email breaks ties). */
export async function membersOf(em: EntityManager, teamId: string): Promise<MemberRow[]> {
  const rows = await rawQuery<{ user_id: string; email: string; role: TeamRole; created_at: string }>(
    em,
    `select m.user_id, ${emailOfUser('m.user_id')} as email, m.role, m.created_at from team_members m
     where m.team_id = $1 order by m.role = 'owner' desc, m.created_at, email`,
    [teamId],
  );
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    role: row.role,
    joinedAt: asDate(row.created_at),
  }));
}
