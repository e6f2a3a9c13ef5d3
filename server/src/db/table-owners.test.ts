import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every table has one owner folder: only files under it run SQL on the table (CONTRIBUTING.md,
// "One owner per table"). Migrations create them all.

const source = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

const OWNERS: Record<string, string> = {
  events: 'events/store',
  event_queue: 'events/store',
  event_counts: 'events/store',
  event_totals: 'events/store',
  pending_event_counts: 'events/store',
  counter_owners_gone: 'events/store',
  crons: 'crons',
  cron_counts: 'crons',
  destinations: 'destinations/store',
  destination_counts: 'destinations/store',
  destination_hours: 'destinations/store',
  delivery_minutes: 'overview/store',
  idempotency_keys: 'idempotency',
  sessions: 'sessions',
  auth_throttle: 'auth',
  users: 'users',
  password_resets: 'users',
  teams: 'teams',
  team_members: 'teams',
  team_invites: 'teams',
  api_keys: 'teams',
  team_limits: 'limits',
  api_processes: 'limits',
};

const statementOn = (table: string) =>
  new RegExp(String.raw`\b(from|into|update|join|table)\s+"?${table}"?(\s|$|[),;\`])`, 'i');

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [file] : [];
  });
}

const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/** What each file outside the owners reaches: the tables it names in a statement. */
function strangers(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const absolute of productionFiles(source)) {
    const file = path.relative(source, absolute);
    if (within(file, 'db/migrations')) continue;
    const text = readFileSync(absolute, 'utf8');
    const reached = Object.entries(OWNERS)
      .filter(([table, owner]) => !within(file, owner) && statementOn(table).test(text))
      .map(([table]) => table);
    if (reached.length > 0) found[file] = reached.sort();
  }
  return found;
}

describe('the tables', () => {
  it('each have one owner folder, and no file outside it reaches into one', () => {
    expect(strangers()).toEqual({});
  });

  it('are all owned: every table a migration creates has its folder', () => {
    const migrations = path.join(source, 'db', 'migrations');
    const created = readdirSync(migrations)
      .filter((name) => !name.includes('.test.'))
      .flatMap((name) =>
        [
          ...readFileSync(path.join(migrations, name), 'utf8').matchAll(
            /create table (?:if not exists )?(\w+)/gi,
          ),
        ].map((match) => match[1] ?? ''),
      );
    expect(created.filter((table) => !(table in OWNERS) && table !== 'agenda_jobs').sort()).toEqual([]);
  });

  it('are found by the check when a statement names one', () => {
    expect(statementOn('crons').test('select id from crons where id = $1')).toBe(true);
    expect(statementOn('crons').test('update crons c set x = 1')).toBe(true);
    expect(statementOn('teams').test('join teams t on t.id = e.team_id')).toBe(true);
    expect(statementOn('events').test('select 1 from event_queue q')).toBe(false);
    expect(statementOn('crons').test('const crons = await listCrons()')).toBe(false);
  });
});
