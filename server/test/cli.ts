import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const serverDir = fileURLToPath(new URL('../', import.meta.url));
const bin = path.join(serverDir, 'bin', 'webhook-scheduler.js');

/** How a run of the command line ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Most one run of the command line may take: past it, the run is killed and its test fails. */
const CLI_RUN_TIMEOUT_MS = 20_000;
/**
 * A CLI test's own limit: above the most runs a test makes (7) times each run's limit, so that a
 * test fails on a run that hangs, never on several slow process starts (a test of six runs timed
 * out at vitest's 30 s while a benchmark loaded the machine).
 */
export const CLI_TEST_TIMEOUT_MS = 10 * CLI_RUN_TIMEOUT_MS;

/** Runs `webhook-scheduler <args>` (server/dist) on the database at `databaseUrl`, with `env` added. */
export function cli(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: serverDir,
        timeout: CLI_RUN_TIMEOUT_MS,
        // Only what the CLI needs: no DATA_DIR or LOG_LEVEL of the developer's shell leaks in.
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, ...env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The JSON object a `--json` command prints as its last line. */
export function lastJsonLine(result: CliResult): any {
  if (result.code !== 0) expect.fail(`exit ${result.code}: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '');
}

async function newestMtime(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const sources = entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'));
  const times = await Promise.all(
    sources.map(async (e) => (await stat(path.join(e.parentPath, e.name))).mtimeMs),
  );
  return Math.max(...times);
}

/** Fails fast when server/dist is missing or older than server/src: the CLI runs the build. */
export async function requireBuiltServer(): Promise<void> {
  const built = await stat(path.join(serverDir, 'dist', 'main.js')).catch(() => undefined);
  if (!built || built.mtimeMs < (await newestMtime(path.join(serverDir, 'src')))) {
    throw new Error('server/dist is missing or older than server/src: run `npx turbo run build` first');
  }
}
