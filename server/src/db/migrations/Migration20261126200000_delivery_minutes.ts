import { Migration } from '@mikro-orm/migrations';

/**
 * The Overview's figures per team and minute: calls by outcome and their lateness histogram
 * (lateness/lateness.rules.ts), so that a window of a team's deliveries sums at most a row per
 * minute however many events the team holds. Written like `event_counts`: the outcome statement
 * only appends a row per team and minute of its batch (no writer updates a row, so none waits and
 * none can deadlock), and a background job folds each key's rows into one and drops minutes older
 * than eight days. No foreign key: appending takes no lock on the team's row, and a deleted team's
 * minutes age out.
 *
 * Starts empty: the figures fill in as calls are made.
 */
export class Migration20261126200000_delivery_minutes extends Migration {
  override up(): void {
    this.addSql(`create table delivery_minutes (
      team_id uuid not null,
      minute timestamptz not null,
      succeeded integer not null,
      -- Failed calls after which a retry is planned; failed holds the calls that ended a delivery.
      retrying integer not null,
      failed integer not null,
      -- Lateness histogram, sparse: bucket numbers ascending and the count of each.
      lateness_buckets smallint[] not null,
      lateness_counts integer[] not null,
      folded boolean not null default false
    )`);
    this.addSql('create index delivery_minutes_team_idx on delivery_minutes (team_id, minute)');
    // The keys with rows to fold, found without reading the folded ones.
    this.addSql(
      'create index delivery_minutes_unfolded_idx on delivery_minutes (team_id, minute) where not folded',
    );
    this.addSql('create index delivery_minutes_age_idx on delivery_minutes (minute)');
  }
}
