import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../guide-samples.js';

const run = promisify(execFile);

/**
 * The release an upgrade starts from: the commit before the one that made migrations expand-only
 * (and added the first migration held to it). Move it forward as releases are cut.
 */
export const PREVIOUS_RELEASE = '8575cb5';

/** Where built releases are kept between runs (UPGRADE_CACHE_DIR, or a folder of the temp dir). */
function cacheDir(): string {
  return process.env.UPGRADE_CACHE_DIR ?? path.join(os.tmpdir(), 'webhook-scheduler-releases');
}

async function sh(command: string, args: string[], cwd: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/**
 * The built `webhook-scheduler` binary of `commit`: its sources as git has them (`git archive`,
 * which writes nothing into the repository, unlike a registered worktree), dependencies installed
 * without scripts (no embedded PostgreSQL is needed) and the server built. Built once into a
 * folder of its own and renamed when complete, so an interrupted build is never taken for one.
 */
export async function previousRelease(commit = PREVIOUS_RELEASE): Promise<string> {
  const { stdout } = await run('git', ['rev-parse', `${commit}^{commit}`], { cwd: REPO_ROOT });
  const full = stdout.trim();
  const dir = path.join(cacheDir(), full);
  const bin = path.join(dir, 'server', 'bin', 'webhook-scheduler.js');
  if (existsSync(path.join(dir, '.built'))) return bin;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await sh(
      'sh',
      ['-c', `git -C "${REPO_ROOT}" archive --format=tar ${full} | tar -x -C "${partial}"`],
      REPO_ROOT,
    );
    await sh('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], partial);
    await sh(
      'npx',
      ['turbo', 'run', 'build', '--filter=@webhook-scheduler/server...', '--output-logs=errors-only'],
      partial,
    );
    await writeFile(path.join(partial, '.built'), `${full}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return bin;
}
