import { Migration } from '@mikro-orm/migrations';

/**
 * What a create answered for an `Idempotency-Key`, per team, for 24 h (docs/reference/behaviour.md#idempotency). The answer is
 * kept as the JSON text sent, so a replay repeats it byte for byte.
 */
export class Migration20261123110000_idempotency_keys extends Migration {
  override up(): void {
    this.addSql(`create table idempotency_keys (
        team_id uuid not null references teams (id) on delete cascade,
        key text not null,
        request_hash text not null,
        response_status smallint not null,
        response_body text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        primary key (team_id, key)
      )`);
    this.addSql(`create index idempotency_keys_expiry_idx on idempotency_keys (expires_at)`);
  }
}
