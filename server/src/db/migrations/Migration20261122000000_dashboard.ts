import { Migration } from '@mikro-orm/migrations';

/** Dashboard users, their teams, their sessions, and the sign-in counters every API process shares. */
export class Migration20261122000000_dashboard extends Migration {
  override up(): void {
    this.addSql(`
      create table users (
        id uuid primary key,
        email text not null check (email = lower(email) and length(email) between 3 and 254),
        password_hash text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create unique index users_email_idx on users (email)`);
    this.addSql(`
      create table team_members (
        team_id uuid not null references teams (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
        role text not null check (role in ('owner', 'member')),
        created_at timestamptz not null,
        primary key (team_id, user_id)
      )`);
    this.addSql(`create index team_members_user_idx on team_members (user_id)`);
    // Only a hash of the token is stored: a leaked table does not hand out sessions.
    this.addSql(`
      create table sessions (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        token_hash text not null unique,
        created_at timestamptz not null,
        last_seen_at timestamptz not null,
        expires_at timestamptz not null
      )`);
    this.addSql(`create index sessions_user_idx on sessions (user_id)`);
    this.addSql(`create index sessions_expiry_idx on sessions (expires_at)`);
    // Fixed-window counters keyed by what is limited (an email, a client address): in the database,
    // so the limit holds however many API processes share it.
    this.addSql(`
      create table auth_throttle (
        key text primary key,
        window_started_at timestamptz not null,
        hits integer not null
      )`);
  }
}
