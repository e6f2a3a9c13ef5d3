import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const owner = path.join(source, 'events', 'store');
const migrations = path.join(source, 'db', 'migrations');
/** A statement that reads or writes the `events` table or its queue. */
const STATEMENT_ON_EVENTS = /\b(from|into|update|join|table)\s+(events|event_queue)\b/i;

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [file] : [];
  });
}

describe('the events table', () => {
  it('is read and written only by events/store (and created by migrations)', () => {
    const strangers = productionFiles(source)
      .filter((file) => !file.startsWith(owner) && !file.startsWith(migrations))
      .filter((file) => STATEMENT_ON_EVENTS.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(source, file));
    expect(strangers).toEqual([]);
  });

  it('is found by the check when a statement names it', () => {
    expect(STATEMENT_ON_EVENTS.test('select id from events where id = $1')).toBe(true);
    expect(STATEMENT_ON_EVENTS.test('insert into events (id) values ($1)')).toBe(true);
    expect(STATEMENT_ON_EVENTS.test('const events = await listEvents()')).toBe(false);
  });
});
