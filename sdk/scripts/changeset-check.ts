import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Fails when the SDK changed since its last release without a changeset saying how.
 *
 * The last release is the last commit that changed the `"version"` line of sdk/package.json:
 * `npm run version` (changeset version) writes the new version and consumes the changesets in
 * one commit, and the commit that created the package counts as the first. Everything users
 * can notice that differs from that commit — in the working tree, so uncommitted work counts —
 * needs a pending changeset naming the SDK. Only git history is used, so it works on any clone
 * with history, with no registry or tag lookup.
 */

/** A published package of this repository: its npm name and its folder. */
export interface PublishedPackage {
  name: string;
  dir: string;
}

/** The SDK, which this check was written for. */
export const SDK: PublishedPackage = { name: '@webhook-scheduler/sdk', dir: 'sdk' };
/** The ts-rest contract, published for users of `initClient` and `@ts-rest/react-query`. */
export const CONTRACT: PublishedPackage = { name: '@webhook-scheduler/contract', dir: 'contract' };
export const PACKAGE = SDK.name;
// Fields of package.json that change what users install or import.
const PUBLISHED_FIELDS = [
  'name',
  'type',
  'exports',
  'main',
  'types',
  'files',
  'sideEffects',
  'engines',
  'dependencies',
  'peerDependencies',
];

/** Whether a file under sdk/ ends up in what users run: sources (not tests) and the build config. */
export function isPublishedSource(file: string, dir = SDK.dir): boolean {
  if (file === `${dir}/tsup.config.ts` || file === `${dir}/tsconfig.build.json`) return true;
  return file.startsWith(`${dir}/src/`) && !file.endsWith('.test.ts');
}

/** The published fields of package.json whose values differ between two versions of it. */
export function changedPackageFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  return PUBLISHED_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** Whether a changeset file's front matter names the package. */
export function changesetNames(markdown: string, name: string): boolean {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(markdown)?.[1] ?? '';
  return frontMatter
    .split(/\r?\n/)
    .some((line) => new RegExp(`^\\s*["']?${name.replace(/[/.]/g, '\\$&')}["']?\\s*:`).test(line));
}

/** The outcome of the check, with a message for people. */
export interface ChangesetCheck {
  ok: boolean;
  message: string;
}

/** Runs the check in the git repository at `root`. */
export function checkChangeset(root: string, target: PublishedPackage = SDK): ChangesetCheck {
  const { name, dir } = target;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const release = git('log', '-1', '--format=%H', '-G', '^\\s*"version":', '--', `${dir}/package.json`);
  if (!release) {
    const shallow = git('rev-parse', '--is-shallow-repository') === 'true';
    return {
      ok: false,
      message: shallow
        ? 'This clone is shallow: fetch the history (git fetch --unshallow) to find the last SDK release.'
        : `No commit sets the version of ${dir}/package.json.`,
    };
  }
  const changed = [
    ...git('diff', '--name-only', release, '--', dir).split('\n'),
    ...git('ls-files', '--others', '--exclude-standard', '--', dir).split('\n'),
  ].filter((file) => file !== '');
  const reasons = changed.filter((file) => isPublishedSource(file, dir));
  if (changed.includes(`${dir}/package.json`)) {
    const before = JSON.parse(git('show', `${release}:${dir}/package.json`)) as Record<string, unknown>;
    const after = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    reasons.push(...changedPackageFields(before, after).map((field) => `${dir}/package.json (${field})`));
  }
  const since = `since its last release (${release.slice(0, 10)})`;
  if (reasons.length === 0) return { ok: true, message: `${name} has no user-visible change ${since}.` };

  const directory = path.join(root, '.changeset');
  const changesets = readdirSync(directory)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .filter((file) => changesetNames(readFileSync(path.join(directory, file), 'utf8'), name));
  if (changesets.length > 0) {
    return {
      ok: true,
      message: `${name} changed ${since}; described by .changeset/${changesets.join(', .changeset/')}.`,
    };
  }
  return {
    ok: false,
    message: [
      `${name} changed ${since} without a changeset:`,
      ...reasons.map((reason) => `  ${reason}`),
      `Run \`npm run changeset\`, pick ${name} and describe the change for its CHANGELOG, then commit the file.`,
    ].join('\n'),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const results = [SDK, CONTRACT].map((target) => checkChangeset(root, target));
  for (const result of results) (result.ok ? process.stdout : process.stderr).write(`${result.message}\n`);
  process.exitCode = results.every((result) => result.ok) ? 0 : 1;
}
