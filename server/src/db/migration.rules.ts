/**
 * Migrations are expand-then-contract: while an upgrade rolls, processes of the previous release run
 * against the migrated schema, so a migration may only add what they can ignore (tables, nullable
 * columns or columns with a default, indexes, functions). Removing or tightening what they use
 * (dropping, renaming, retyping, NOT NULL without a default) waits for a later release, once no
 * process of the release that used it is left. This names the steps that break that rule.
 */
const CONTRACTING: [RegExp, string][] = [
  [/\bdrop\s+(table|column|index|constraint|function|trigger|view|type|sequence)\b/, 'drops a $1'],
  [/\brename\s+(column\s+\S+\s+)?to\b/, 'renames'],
  [/\balter\s+column\s+\S+\s+(set\s+not\s+null|(set\s+data\s+)?type)\b/, 'tightens or retypes a column'],
  [/\badd\s+constraint\b/, 'adds a constraint that writes of the previous release may break'],
];

function normalized(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Why the SQL of one migration step is not expand-only; empty when it is. */
export function contractingSteps(sql: string): string[] {
  const text = normalized(sql);
  const found = CONTRACTING.flatMap(([pattern, why]) => {
    const match = pattern.exec(text);
    return match ? [why.replace('$1', match[1] ?? '')] : [];
  });
  // Each `add column` clause of an `alter table`, up to the next clause.
  const added = text.split(/\badd\s+column\b/).slice(1);
  for (const clause of added.map((part) => part.split(/,\s*(add|alter|drop)\b/)[0] ?? '')) {
    if (/\bnot\s+null\b/.test(clause) && !/\bdefault\b/.test(clause)) {
      found.push('adds a NOT NULL column without a default, which inserts of the previous release lack');
    }
  }
  return found;
}
