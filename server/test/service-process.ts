import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './receiver.js';

/** The start banner's URL (http://127.0.0.1:<port>), printed once the process listens. */
const LISTENING = /(http:\/\/127\.0\.0\.1:\d+)/;

/** The built service's executable (server/bin over server/dist). */
export const SERVICE_BIN = path.join(
  fileURLToPath(new URL('../', import.meta.url)),
  'bin',
  'webhook-scheduler.js',
);

/** The real service binary (server/dist) running in a child process. */
export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to clean up. */
  kill(): Promise<void>;
}

/**
 * Starts `webhook-scheduler start --role <role>` on DATABASE_URL; resolves once it listens.
 * `release`: the bin of another build (an earlier release's, for upgrade tests).
 */
export async function startServiceProcess(
  role: 'all' | 'api' | 'scheduler',
  databaseUrl: string,
  env: Record<string, string> = {},
  release = SERVICE_BIN,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [release, 'start', '--role', role], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!LISTENING.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Never leave it running: nothing else knows about it yet.
      child.kill('SIGKILL');
      throw new Error(`the ${role} process did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The API key a first start printed. It follows the URL on the output, maybe in a later chunk
 * than the one that showed the process listening: wait for it.
 */
export async function firstKey(service: ServiceProcess): Promise<string> {
  const read = () => Promise.resolve(/whs_[0-9A-Za-z]+/.exec(service.output())?.[0]);
  return (await eventually(read, Boolean, 10_000)) ?? '';
}

/** The URL a started process printed it listens on. */
export function listeningUrl(service: ServiceProcess): string {
  const url = LISTENING.exec(service.output())?.[1];
  if (!url) throw new Error('no URL in the output');
  return url;
}
