import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000_initial } from './Migration20261121000000_initial.js';
import { Migration20261121100000_scheduler } from './Migration20261121100000_scheduler.js';
import { Migration20261121110000_api_key_notify } from './Migration20261121110000_api_key_notify.js';
import { Migration20261121120000_count_indexes } from './Migration20261121120000_count_indexes.js';
import { Migration20261121130000_event_totals } from './Migration20261121130000_event_totals.js';
import { Migration20261122000000_dashboard } from './Migration20261122000000_dashboard.js';
import { Migration20261123000000_scheduler_owners } from './Migration20261123000000_scheduler_owners.js';

/** Every migration, in order. Listed explicitly so the compiled service needs no file globbing. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261121100000_scheduler', class: Migration20261121100000_scheduler },
  { name: 'Migration20261121110000_api_key_notify', class: Migration20261121110000_api_key_notify },
  { name: 'Migration20261121120000_count_indexes', class: Migration20261121120000_count_indexes },
  { name: 'Migration20261121130000_event_totals', class: Migration20261121130000_event_totals },
  { name: 'Migration20261122000000_dashboard', class: Migration20261122000000_dashboard },
  { name: 'Migration20261123000000_scheduler_owners', class: Migration20261123000000_scheduler_owners },
];
