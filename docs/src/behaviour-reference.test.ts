import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REFERENCE = 'docs/reference/behaviour.md';
const SOURCES = ['contract/src', 'scheduler/src', 'server/src', 'server/test', 'sdk/src', 'docs/src'];
const CITATION = /docs\/reference\/behaviour\.md#([a-z0-9-]+)/g;

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replaceAll(' ', '-');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const anchors = new Set(
  readFileSync(path.join(ROOT, REFERENCE), 'utf8')
    .split('\n')
    .flatMap((line) => (/^#{2,3} /.test(line) ? [anchorOf(line.replace(/^#+ /, ''))] : [])),
);

describe('the behaviour reference', () => {
  it('has a section for every anchor a comment points at', () => {
    const cited = SOURCES.flatMap(sourceFiles).flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(CITATION)].map(([, anchor]) => ({
        file,
        anchor,
      })),
    );
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter(({ anchor }) => anchor && !anchors.has(anchor))).toEqual([]);
  });

  it('is what comments cite instead of decisions kept outside the repository', () => {
    // § as an escape, so this file does not match itself.
    const elsewhere = /\bdecision \d|extensions \u00a7/i;
    const outside = SOURCES.flatMap(sourceFiles).filter((file) =>
      elsewhere.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});
