import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTRACT,
  PACKAGE,
  changedPackageFields,
  changesetNames,
  checkChangeset,
  isPublishedSource,
} from './changeset-check.js';

describe('isPublishedSource', () => {
  it.each([
    ['sdk/src/client.ts', true],
    ['sdk/src/errors/network-error.ts', true],
    ['sdk/tsup.config.ts', true],
    ['sdk/src/client.test.ts', false],
    ['sdk/scripts/check-package.ts', false],
    ['sdk/test/msw.ts', false],
    ['sdk/README.md', false],
  ])('%s → %s', (file, expected) => {
    expect(isPublishedSource(file)).toBe(expected);
  });
});

describe('changedPackageFields', () => {
  it('names runtime-relevant fields that differ and ignores scripts, devDependencies and version', () => {
    const before = {
      version: '1.0.0',
      dependencies: { ky: '^2.0.0' },
      scripts: { a: 'x' },
      devDependencies: {},
    };
    const after = {
      version: '1.1.0',
      dependencies: { ky: '^2.1.0' },
      scripts: { a: 'y' },
      devDependencies: { x: '1' },
    };
    expect(changedPackageFields(before, after)).toEqual(['dependencies']);
  });
});

describe('changesetNames', () => {
  it.each([
    [`---\n'${PACKAGE}': minor\n---\n\nText`, true],
    [`---\n"${PACKAGE}": patch\n---\n`, true],
    [`---\n${PACKAGE}: major\n---\n`, true],
    [`---\n'@webhook-scheduler/sdk-extra': minor\n---\n`, false],
    [`---\n---\n\n${PACKAGE}: minor`, false],
    ['no front matter', false],
  ])('%j → %s', (markdown, expected) => {
    expect(changesetNames(markdown, PACKAGE)).toBe(expected);
  });
});

describe('checkChangeset in a repository', () => {
  let root: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const packageJson = (version: string, dependencies = { ky: '^2.1.0' }) =>
    `${JSON.stringify({ name: PACKAGE, version, dependencies, scripts: { test: 'vitest' } }, null, 2)}\n`;
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'changeset-check-'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    write('.changeset/README.md', 'how to\n');
    write('sdk/package.json', packageJson('1.0.0'));
    write('sdk/src/index.ts', 'export const a = 1;\n');
    commit('release 1.0.0');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes right after a release', () => {
    expect(checkChangeset(root).ok).toBe(true);
  });

  it('fails when a source file changed without a changeset, naming the file', () => {
    write('sdk/src/index.ts', 'export const a = 2;\n');
    commit('change');

    const result = checkChangeset(root);

    expect(result.ok).toBe(false);
    expect(result.message).toContain('sdk/src/index.ts');
    expect(result.message).toContain('npm run changeset');
  });

  it('fails on an uncommitted new source file', () => {
    write('sdk/src/new.ts', 'export const b = 1;\n');

    expect(checkChangeset(root)).toMatchObject({
      ok: false,
      message: expect.stringContaining('sdk/src/new.ts'),
    });
  });

  it('fails when a runtime dependency changed without a changeset', () => {
    write('sdk/package.json', packageJson('1.0.0', { ky: '^3.0.0' }));
    commit('bump ky');

    expect(checkChangeset(root)).toMatchObject({
      ok: false,
      message: expect.stringContaining('(dependencies)'),
    });
  });

  it('passes when a changeset names the SDK', () => {
    write('sdk/src/index.ts', 'export const a = 2;\n');
    write('.changeset/brave-fox.md', `---\n'${PACKAGE}': patch\n---\n\nFix a.\n`);
    commit('change with changeset');

    expect(checkChangeset(root)).toMatchObject({
      ok: true,
      message: expect.stringContaining('brave-fox.md'),
    });
  });

  it('fails when the only changeset is for another package', () => {
    write('sdk/src/index.ts', 'export const a = 2;\n');
    write('.changeset/other.md', `---\n'@webhook-scheduler/other': patch\n---\n\nOther.\n`);
    commit('change');

    expect(checkChangeset(root).ok).toBe(false);
  });

  it('passes after the version commit consumed the changeset', () => {
    write('sdk/src/index.ts', 'export const a = 2;\n');
    write('.changeset/brave-fox.md', `---\n'${PACKAGE}': patch\n---\n\nFix a.\n`);
    commit('change with changeset');
    rmSync(path.join(root, '.changeset/brave-fox.md'));
    write('sdk/package.json', packageJson('1.0.1'));
    commit('version 1.0.1');

    expect(checkChangeset(root).ok).toBe(true);
  });

  it('passes when only tests, scripts and docs of the SDK changed', () => {
    write('sdk/src/index.test.ts', 'test\n');
    write('sdk/scripts/tool.ts', 'tool\n');
    write('sdk/README.md', 'readme\n');
    write('server/src/app.ts', 'server\n');
    commit('not user-visible');

    expect(checkChangeset(root).ok).toBe(true);
  });

  it('checks another published package by its own folder and name', () => {
    write('contract/package.json', `${JSON.stringify({ name: CONTRACT.name, version: '0.1.0' }, null, 2)}\n`);
    write('contract/src/index.ts', 'export const c = 1;\n');
    commit('contract 0.1.0');
    expect(checkChangeset(root, CONTRACT).ok).toBe(true);

    write('contract/src/index.ts', 'export const c = 2;\n');
    write('.changeset/sdk-only.md', `---\n'${PACKAGE}': patch\n---\n\nSDK.\n`);
    commit('contract change, SDK changeset');
    expect(checkChangeset(root, CONTRACT)).toMatchObject({
      ok: false,
      message: expect.stringContaining('contract/src/index.ts'),
    });

    write('.changeset/contract.md', `---\n'${CONTRACT.name}': minor\n---\n\nContract.\n`);
    expect(checkChangeset(root, CONTRACT).ok).toBe(true);
  });
});

describe('this repository', () => {
  const root = () => execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();

  it('has a changeset for every user-visible change to the SDK since its last release', () => {
    const result = checkChangeset(root());
    expect(result.ok, result.message).toBe(true);
  });

  it('has a changeset for every user-visible change to the contract since its last release', () => {
    const result = checkChangeset(root(), CONTRACT);
    expect(result.ok, result.message).toBe(true);
  });
});
