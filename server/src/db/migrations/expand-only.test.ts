import type { MigrationObject } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { describe, expect, it } from 'vitest';
import { contractingSteps } from '../migration.rules.js';
import { migrations } from './index.js';

/**
 * Migrations written before the expand-then-contract rule that contract: a process of the release
 * before each breaks once it has run, so an upgrade across one stops every process first
 * (docs/guides/self-hosting.md#upgrading). The list is closed: new migrations are expand-only.
 */
const CONTRACTED_BEFORE_THE_RULE = new Map([
  [
    'Migration20261123120000_replays_and_triggers',
    'narrows the unique index of cron occurrences, which the ON CONFLICT of older cron materialization names',
  ],
  [
    'Migration20261125030000_event_queue',
    'moves the leases from events to event_queue and drops their columns',
  ],
]);

/** The SQL statements a migration's up() adds; none of ours runs anything while being built. */
function statementsOf(migration: MigrationObject): string[] {
  const Step = migration.class as unknown as new (driver: never, config: never) => Migration;
  const step = new Step(undefined as never, undefined as never);
  void step.up();
  return step.getQueries().map(String);
}

describe('the migrations', () => {
  it.each(migrations.map((migration) => [migration.name, migration] as const))(
    '%s only expands the schema, or is a listed exception',
    (name, migration) => {
      const problems = statementsOf(migration).flatMap(contractingSteps);
      if (CONTRACTED_BEFORE_THE_RULE.has(name)) expect(problems).not.toEqual([]);
      else expect(problems).toEqual([]);
    },
  );
});
