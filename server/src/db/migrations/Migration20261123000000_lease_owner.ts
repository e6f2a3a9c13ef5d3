import { Migration } from '@mikro-orm/migrations';

/** A claim records the scheduler process that holds it, so a dead process's leases are taken back at once. */
export class Migration20261123000000_lease_owner extends Migration {
  override up(): void {
    this.addSql(`alter table events add column lease_owner integer`);
  }
}
