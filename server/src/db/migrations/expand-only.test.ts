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

/**
 * Steps the rule flags that the previous release cannot notice, each reviewed: the test expects
 * exactly these, so any other contracting step in the same migration still fails it.
 */
const REVIEWED = new Map<string, { steps: string[]; why: string }>([
  [
    'Migration20261126000000_event_origins',
    {
      steps: ['drops a function'],
      why: 'webhook_destination() was called only by the queue trigger this migration replaces',
    },
  ],
  [
    'Migration20261126010000_status_schedule_index',
    {
      steps: ['drops a index', 'drops a index'],
      why: 'rebuilds an index an interrupted build left invalid, and drops the (team_id, status) index, the prefix of the new one',
    },
  ],
  [
    'Migration20261126100000_exact_quotas',
    {
      steps: ['tightens or retypes a column', 'tightens or retypes a column'],
      why: "widens the counters' shard from smallint to integer: every value the previous release writes fits",
    },
  ],
  [
    'Migration20261126300000_destinations',
    {
      steps: ['drops a index', 'drops a index', 'drops a index', 'drops a index'],
      why: 'each index it builds concurrently is first dropped if an interrupted build left it invalid',
    },
  ],
  [
    'Migration20261127020000_cron_top_up_index',
    {
      steps: ['drops a index', 'drops a index'],
      why: "rebuilds an index an interrupted build left invalid, and drops the top-up's old index, which no release's plan read",
    },
  ],
  [
    'Migration20261130000000_cron_top_up_spread',
    {
      steps: ['drops a index', 'drops a index'],
      why: "rebuilds an index an interrupted build left invalid, and drops the top-up's old index: the previous release's top-up reads every active cron without it, and works",
    },
  ],
  [
    'Migration20261130100000_cron_top_up_gap',
    {
      steps: ['drops a index', 'drops a index'],
      why: "rebuilds an index an interrupted build left invalid, and drops the top-up's previous index: the previous release's top-up reads every active cron without it, and works",
    },
  ],
  [
    'Migration20261130200000_counter_live_shards',
    {
      steps: ['drops a index', 'drops a index'],
      why: 'rebuilds the indexes it adds when an interrupted build left them invalid',
    },
  ],
  [
    'Migration20261128000000_cron_schedule_index',
    {
      steps: ['drops a index'],
      why: 'rebuilds the index it adds when an interrupted build left it invalid',
    },
  ],
]);

/**
 * The SQL statements a migration's up() adds or runs. Those that run their statements themselves
 * (outside a transaction) run them against a driver that records them and answers as an empty,
 * idle database would.
 */
async function statementsOf(migration: MigrationObject): Promise<string[]> {
  const ran: string[] = [];
  const answer = (sql: string) =>
    /pg_current_xact_id/.test(sql) ? [{ xid: '1' }] : /as done/.test(sql) ? [{ done: true }] : [];
  const driver = {
    execute: (sql: unknown) => {
      ran.push(String(sql));
      return Promise.resolve(answer(String(sql)));
    },
    createEntityManager: () => ({
      setTransactionContext: () => undefined,
      getKysely: () => ({
        executeQuery: (query: { sql: string }) => {
          ran.push(query.sql);
          return Promise.resolve({ rows: answer(query.sql) });
        },
      }),
    }),
  };
  const Step = migration.class as unknown as new (driver: never, config: never) => Migration;
  const step = new Step(driver as never, undefined as never);
  await step.up();
  return [...step.getQueries().map(String), ...ran];
}

describe('the migrations', () => {
  it.each(migrations.map((migration) => [migration.name, migration] as const))(
    '%s only expands the schema, or is a listed exception',
    async (name, migration) => {
      const problems = (await statementsOf(migration)).flatMap(contractingSteps);
      if (CONTRACTED_BEFORE_THE_RULE.has(name)) expect(problems).not.toEqual([]);
      else expect(problems).toEqual(REVIEWED.get(name)?.steps ?? []);
    },
  );
});
