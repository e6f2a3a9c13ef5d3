// Starting and stopping the processes a benchmark drives: the service (by role) and the receiver.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, chmod, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Another checkout's service can be measured with the same benchmark (e.g. a baseline).
const bin = path.join(process.env.BENCH_SERVICE_ROOT ?? root, 'server/bin/webhook-scheduler.js');

export interface Running {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

function start(command: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function waitFor<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fresh data directory for the embedded PostgreSQL (PostgreSQL may run as another user). */
export async function freshDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wsbench-'));
  await chmod(dir, 0o755);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function startService(
  role: string,
  port: number,
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<Running> {
  const service = start(process.execPath, [bin, 'start', '--role', role], {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // The benchmarks measure the service with one key far above the default 100 requests/s: the
    // rate limiter still runs on every request, it just never refuses one.
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    ...extra,
  });
  try {
    await waitFor(
      () => (/http:\/\/127\.0\.0\.1:\d+/.test(service.output()) ? true : undefined),
      `the ${role} service`,
    );
  } catch (error) {
    service.child.kill('SIGKILL');
    throw error;
  }
  return service;
}

/** The first key, once printed: it may come in a later chunk of output than the line waited for. */
export function printedKey(service: Running): Promise<string> {
  return waitFor(() => /whs_[0-9A-Za-z]+/.exec(service.output())?.[0], 'the first API key', 10_000);
}

export function firstKey(service: Running): string {
  const key = /whs_[0-9A-Za-z]+/.exec(service.output())?.[0];
  if (!key) throw new Error('the service printed no API key (not a fresh data directory?)');
  return key;
}

/** A bench script run as its own process, once it printed the port it listens on. */
export async function startListener(script: string, args: string[]): Promise<Running & { url: string }> {
  const listener = start(process.execPath, [path.join(root, 'bench/src', script), ...args], {});
  try {
    const port = await waitFor(() => /^(\d+)$/m.exec(listener.output())?.[1], script);
    return { ...listener, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    listener.child.kill('SIGKILL');
    throw error;
  }
}

/** The benchmarks' receiver process, answering after `delayMs`. */
export function startReceiver(delayMs = 0): Promise<Running & { url: string }> {
  return startListener('receiver.ts', ['0', String(delayMs)]);
}

/**
 * The receivers of bench/scale and bench/burst: one process listening on `count` ports from `base`
 * of 127.0.0.1, each port its own origin, answering after `delayMs` (`scale/receivers.ts`).
 */
export function startPortReceivers(base: number, count: number, delayMs = 0): Promise<Running> {
  const receivers = start(
    process.execPath,
    [path.join(root, 'bench/src/scale/receivers.ts'), String(base), String(count), String(delayMs)],
    {},
  );
  return waitFor(() => (receivers.output().includes('listening') ? receivers : undefined), 'the receivers');
}

/** What the port receivers under `port` (any of their ports) counted. */
export async function portReceiverStats(port: number) {
  const response = await fetch(`http://127.0.0.1:${port}/stats`);
  return (await response.json()) as {
    requests: number;
    unique: number;
    duplicates: number;
    maxInFlight: number;
    perSecond: Record<string, number>;
  };
}

/** Percentile of a sorted array (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** p50, p95, p99 and max of `values` (ms), to a tenth. */
export function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}

/** Writes a benchmark's figures to `results/<name>-<date>.json` and prints them. */
export async function saveReport(name: string, report: { date: string }): Promise<void> {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(path.join(root, 'bench/results', `${name}-${report.date.slice(0, 10)}.json`), text);
  console.log(text);
}

/** For experiments: the statements of BENCH_SETUP_SQL (e.g. `drop index …` to see what it costs). */
export function setupStatements(): string[] {
  return process.env.BENCH_SETUP_SQL?.split(';').filter((sql) => sql.trim()) ?? [];
}
