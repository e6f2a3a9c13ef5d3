import { Migration } from '@mikro-orm/migrations';

/**
 * The doors of issue 26: a per-team override of the API key quota, invites by email and
 * password-reset links. Both links are kept as SHA-256 hashes of their secret (a leaked table
 * hands out nothing) with the moment they were used, so a second use is told apart from a typo.
 */
export class Migration20261126100000_invites_and_resets extends Migration {
  override up(): void {
    this.addSql('alter table team_limits add column max_api_keys integer');
    this.addSql(`
      create table team_invites (
        id uuid primary key,
        team_id uuid not null references teams (id) on delete cascade,
        email text not null check (email = lower(email)),
        role text not null check (role in ('owner', 'member')),
        token_hash text not null unique,
        invited_by uuid references users (id) on delete set null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index team_invites_team_idx on team_invites (team_id, created_at desc)');
    // One live invite per email and team: a new one replaces it.
    this.addSql(
      'create unique index team_invites_pending_idx on team_invites (team_id, email) where used_at is null',
    );
    this.addSql(
      'create index team_invites_invited_by_idx on team_invites (invited_by) where invited_by is not null',
    );
    this.addSql(`
      create table password_resets (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        token_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index password_resets_user_idx on password_resets (user_id)');
  }
}
