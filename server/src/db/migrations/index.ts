import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000_initial } from './Migration20261121000000_initial.js';

/** Every migration, in order. Listed explicitly so the compiled service needs no file globbing. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
];
