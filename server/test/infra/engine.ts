import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../guide-samples.js';

const run = promisify(execFile);

/** A container engine that answers, and the compose command that goes with it. */
export interface ContainerEngine {
  name: 'podman' | 'docker';
  /** `podman …` / `docker …`; resolves with stdout, rejects with the command's stderr. */
  exec(args: string[], options?: { timeoutMs?: number }): Promise<string>;
  /** `<compose> -p project -f file … <args>` in the repository root, with `env` added. */
  compose(
    project: string,
    files: string[],
    args: string[],
    env: Record<string, string>,
    timeoutMs?: number,
  ): Promise<string>;
}

async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

async function command(
  file: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<string> {
  try {
    const { stdout } = await run(file, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stderr.slice(-4000)}\n${stdout.slice(-2000)}`);
  }
}

/**
 * The first engine whose daemon or runtime answers (a `docker` CLI without a daemon does not
 * count): podman with `podman compose` or `podman-compose`, else docker with `docker compose`.
 */
export async function findEngine(): Promise<ContainerEngine | undefined> {
  for (const name of ['podman', 'docker'] as const) {
    if (!(await runs(name, ['info']))) continue;
    let compose: string[] | undefined;
    if (await runs(name, ['compose', 'version'])) compose = [name, 'compose'];
    else if (name === 'podman' && (await runs('podman-compose', ['version']))) compose = ['podman-compose'];
    if (!compose) continue;
    const [composeFile = name, ...composeArgs] = compose;
    return {
      name,
      exec: (args, options = {}) => command(name, args, options),
      compose: (project, files, args, env, timeoutMs) =>
        command(
          composeFile,
          [...composeArgs, '-p', project, ...files.flatMap((file) => ['-f', file]), ...args],
          timeoutMs === undefined ? { env } : { env, timeoutMs },
        ),
    };
  }
  return undefined;
}

/** Prints why the container tests do not run, where nobody can miss it. */
export function announceSkip(what: string): void {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! SKIPPING ${what}: no podman or docker that answers (with compose).\n` +
      `!! Install podman and podman-compose (.ci/run runs /work/shared/tools/container-standins.sh),\n` +
      `!! or start Docker.\n${'!'.repeat(78)}\n\n`,
  );
}
