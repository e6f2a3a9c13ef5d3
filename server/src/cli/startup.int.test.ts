import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built binary, started the way users start it, failing early with a sentence that says what
// to do instead of a stack trace or a wait.

const serverDir = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(serverDir, 'bin', 'webhook-scheduler.js');

interface Run {
  code: number | null;
  stderr: string;
  stdout: string;
  ms: number;
}

function start(node: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      node,
      [bin, ...args],
      { cwd: serverDir, timeout: 60_000, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

// An older Node.js to start the binary with: the machine's (Debian's is 20), or OLD_NODE_PATH.
const OLD_NODE = process.env.OLD_NODE_PATH ?? '/usr/bin/node';
function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
const oldVersion = existsSync(OLD_NODE) ? versionOf(OLD_NODE) : undefined;
const isOld = (version: string | undefined) => {
  const [major = 0, minor = 0] = (version ?? '').replace(/^v/, '').split('.').map(Number);
  return version !== undefined && (major < 22 || (major === 22 && minor < 19));
};
if (!isOld(oldVersion)) {
  process.stderr.write(
    `\n!! SKIPPING the old-Node.js start-up test: ${OLD_NODE} is ${oldVersion ?? 'missing'}; set OLD_NODE_PATH to a Node.js older than 22.19.\n\n`,
  );
}

// The DATA_DIR case exists only as root, where the service runs PostgreSQL as the `postgres` user.
const asRootWithPostgresUser =
  process.getuid?.() === 0 && versionOf('id') !== undefined && hasUser('postgres');
function hasUser(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('starting the built binary', () => {
  it.skipIf(!isOld(oldVersion))(
    'on a Node.js older than engines asks, says in one sentence what is needed and exits 1',
    async () => {
      const { engines } = JSON.parse(await readFile(path.join(serverDir, 'package.json'), 'utf8')) as {
        engines: { node: string };
      };
      expect(engines.node).toBe('>=22.19');
      for (const args of [['start'], ['--help'], ['teams', 'list']]) {
        const result = await start(OLD_NODE, args);
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          `webhook-scheduler needs Node.js 22.19 or newer, but it was started with Node.js ${oldVersion} (${OLD_NODE}). ` +
            'Install a newer Node.js (https://nodejs.org, or `nvm install 24`) and start it with that.\n',
        );
        expect(result.stdout).toBe('');
      }
    },
  );

  it('on a current Node.js goes past the check', async () => {
    const result = await start(process.execPath, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: webhook-scheduler');
  });

  it.skipIf(!asRootWithPostgresUser)(
    'as root, with DATA_DIR where the postgres user cannot enter, fails at once saying what to do',
    async () => {
      await stat(path.join(serverDir, 'dist', 'main.js'));
      // mkdtemp makes a 0700 directory owned by root, as `mktemp -d` does.
      const parent = await mkdtemp(path.join(os.tmpdir(), 'wst-private-'));
      try {
        const dataDir = path.join(parent, 'data');
        const result = await start(process.execPath, ['start'], { DATA_DIR: dataDir, PORT: '0' });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          `as root, the service runs PostgreSQL as the system user "postgres" (PostgreSQL refuses to run as root), and that user cannot enter ${parent}. Let it in (chmod o+x ${parent}), set DATA_DIR to a directory it can reach`,
        );
        expect(result.stderr).not.toMatch(/initdb: error|\n\s+at /);
        expect(result.ms).toBeLessThan(15_000);

        // Following the advice is enough: the same command then gets past the check.
        await chmod(parent, 0o711);
        const after = await start(process.execPath, ['migrate'], { DATA_DIR: dataDir });
        expect(after.stderr).not.toContain('cannot enter');
        expect(after.code, after.stderr).toBe(0);
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
  );
});
