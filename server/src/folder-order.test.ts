import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The folders of server/src stand in one order: a folder imports only folders below it, never one
// that imports it back, however many folders lie between (CONTRIBUTING.md, "Folders in one order").

const source = fileURLToPath(new URL('.', import.meta.url));

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [file] : [];
  });
}

/** The folder of server/src a file lies in, or the file itself at the top. */
const topOf = (file: string) => path.relative(source, file).split(path.sep)[0] ?? file;

const IMPORT = /(?:from|import\()\s*'(\.[^']+)'/g;

/** Which top folders each top folder imports. */
function folderImports(files: { file: string; text: string }[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, text } of files) {
    const from = topOf(file);
    for (const match of text.matchAll(IMPORT)) {
      const to = topOf(path.resolve(path.dirname(file), match[1] ?? ''));
      if (to === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The imports that close a loop: from a folder to one that reaches it back, [from, to] each. */
function loops(graph: Map<string, Set<string>>): string[][] {
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    for (const next of graph.get(from) ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, to, seen)) return true;
      }
    }
    return false;
  };
  const found: string[][] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (reaches(to, from)) found.push([from, to]);
  }
  return found;
}

describe('the folders of server/src', () => {
  it('import each other in one order: no folder imports one that imports it back', () => {
    const files = productionFiles(source).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(loops(folderImports(files))).toEqual([]);
  });

  it('are found in a loop by the check, also through a folder between', () => {
    const at = (name: string) => path.join(source, name);
    const graph = folderImports([
      { file: at('events/store/claims.ts'), text: "import { x } from '../../teams/y.js';" },
      { file: at('teams/y.ts'), text: "import { z } from '../limits/z.js';" },
      { file: at('limits/z.ts'), text: "import type { w } from '../events/w.js';" },
      { file: at('users/u.ts'), text: "const m = await import('../teams/y.js');" },
    ]);
    expect([...(graph.get('users') ?? [])]).toEqual(['teams']);
    expect(loops(graph).sort()).toEqual([
      ['events', 'teams'],
      ['limits', 'events'],
      ['teams', 'limits'],
    ]);
  });
});
