import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the guides live. */
export const GUIDES_DIR = path.join(REPO_ROOT, 'docs', 'guides');

/**
 * How a fenced block is run, from its info string (```ts runnable id=receiver):
 * - `runnable`: TypeScript runs with Node.js (after type-checking), shell with bash; must exit 0;
 * - `service=embedded|database`: starts the service, which must become ready, then stops it;
 * - `setup`: only `export NAME=value` lines for the variables the other samples are given.
 */
export type Mode = 'runnable' | 'service' | 'setup';

export interface Sample {
  guide: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: 'ts' | 'sh' | 'json' | 'other';
  mode: Mode | undefined;
  attributes: Record<string, string>;
  code: string;
  /** `guide:line`, for test names and file names. */
  name: string;
}

const CODE_LANGUAGES: Record<string, Sample['language']> = {
  ts: 'ts',
  typescript: 'ts',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  json: 'json',
};

function parseInfo(info: string): Pick<Sample, 'language' | 'mode' | 'attributes'> {
  const [language = '', ...words] = info.trim().split(/\s+/);
  const attributes: Record<string, string> = {};
  for (const word of words) {
    const [key = '', value = 'true'] = word.split('=');
    attributes[key] = value;
  }
  const mode = (['runnable', 'service', 'setup'] as const).find((candidate) => candidate in attributes);
  return { language: CODE_LANGUAGES[language] ?? 'other', mode, attributes };
}

/** The fenced code blocks of one guide. */
export function samplesOf(guide: string, markdown: string): Sample[] {
  const samples: Sample[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(.*)$/.exec(lines[index] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end === -1) throw new Error(`${guide}:${index + 1}: unclosed code block`);
    samples.push({
      guide,
      line: index + 1,
      ...parseInfo(open[1] ?? ''),
      code: lines.slice(index + 1, end).join('\n'),
      name: `${guide.replace(/\.md$/, '')}:${index + 1}`,
    });
    index = end;
  }
  return samples;
}

/** Every code block of every guide, in file and document order. */
export function allSamples(): Sample[] {
  return readdirSync(GUIDES_DIR)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .flatMap((file) => samplesOf(file, readFileSync(path.join(GUIDES_DIR, file), 'utf8')));
}
