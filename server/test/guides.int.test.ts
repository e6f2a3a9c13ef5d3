import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientConfig } from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { REPO_ROOT, type Sample, allSamples } from './guide-samples.js';
import { type TestApp, startTestApp } from './harness.js';

// Runs every code sample of docs/guides against the real service, so the guides cannot rot.

const samples = allSamples();
const code = samples.filter((sample) => sample.language === 'ts' || sample.language === 'sh');
const executed = code.filter((sample) => sample.mode === 'runnable' || sample.mode === 'service');
const tsSamples = code.filter((sample) => sample.language === 'ts');

let app: TestApp;
/** A scratch project outside the repository that depends on the SDK, as a user's would. */
let project: string;
let env: Record<string, string>;
const files = new Map<Sample, string>();

function databaseUrl(connection: ClientConfig): string {
  const user = encodeURIComponent(connection.user ?? 'postgres');
  const auth = connection.password ? `${user}:${encodeURIComponent(String(connection.password))}` : user;
  const host = String(connection.host);
  const database = connection.database ?? 'postgres';
  return host.startsWith('/')
    ? `postgres://${auth}@localhost:${connection.port}/${database}?host=${encodeURIComponent(host)}`
    : `postgres://${auth}@${host}:${connection.port}/${database}`;
}

function makeProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'guide-samples-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(path.join(dir, 'node_modules', '@webhook-scheduler'), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'sdk'), path.join(dir, 'node_modules', '@webhook-scheduler', 'sdk'));
  return dir;
}

interface Outcome {
  code: number | null;
  output: string;
}

function finished(child: ChildProcess, timeoutMs: number): Promise<Outcome> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, output });
    });
  });
}

function runSample(sample: Sample): Promise<Outcome> {
  if (sample.language === 'ts') {
    const file = files.get(sample) ?? '';
    const args = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', file];
    return finished(spawn(process.execPath, args, { cwd: project, env }), 30_000);
  }
  // npx finds the service's command only inside the repository.
  const cwd = sample.code.includes('npx ') ? REPO_ROOT : project;
  return finished(spawn('bash', ['-euo', 'pipefail', '-c', sample.code], { cwd, env }), 60_000);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess, deadline: number): Promise<boolean> {
  while (Date.now() < deadline && child.exitCode === null) {
    const ready = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Starts a service sample, waits for /readyz, then stops its whole process group. */
async function runService(sample: Sample): Promise<{ ready: boolean; output: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'guide-service-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL may run as another user
  const serviceEnv: Record<string, string> = {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
  };
  if (sample.attributes.service !== 'database') delete serviceEnv.DATABASE_URL;
  const child = spawn('bash', ['-c', sample.code], { cwd: REPO_ROOT, env: serviceEnv, detached: true });
  const outcome = finished(child, 120_000);
  const ready = await waitUntilReady(`http://127.0.0.1:${port}/readyz`, child, Date.now() + 90_000);
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  const { output } = await outcome;
  rmSync(dataDir, { recursive: true, force: true });
  return { ready, output };
}

function typeErrors(paths: string[]): string {
  const program = ts.createProgram(paths, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')],
    skipLibCheck: true,
    noEmit: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => project,
    getNewLine: () => '\n',
  });
}

function pgDumpMajor(): number {
  try {
    return Number(/(\d+)\./.exec(execFileSync('pg_dump', ['--version'], { encoding: 'utf8' }))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

let serverMajor = 0;

beforeAll(async () => {
  app = await startTestApp();
  const team = await app.createTeam('guides');
  project = makeProject();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    LOG_LEVEL: 'warn',
    WEBHOOK_SCHEDULER_URL: app.url,
    WEBHOOK_SCHEDULER_API_KEY: team.key,
    WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    DATABASE_URL: databaseUrl(app.db.connection),
  };
  for (const sample of tsSamples) {
    const file = path.join(project, `${sample.attributes.id ?? sample.name.replace(/\W/g, '-')}.ts`);
    writeFileSync(file, `${sample.code}\n`);
    files.set(sample, file);
  }
  const [row] = await app.orm.em
    .fork()
    .getConnection()
    .execute<{ version: string }[]>(`select current_setting('server_version_num') as version`);
  serverMajor = Math.floor(Number(row?.version) / 10_000);
}, 120_000);

afterAll(async () => {
  await app.close();
  rmSync(project, { recursive: true, force: true });
});

describe('the guides', () => {
  it('mark every TypeScript and shell sample as runnable, service or setup', () => {
    const unmarked = code.filter((sample) => sample.mode === undefined).map((sample) => sample.name);
    expect(unmarked).toEqual([]);
    expect(executed.length).toBeGreaterThanOrEqual(10);
  });

  it('hold JSON samples that parse', () => {
    for (const sample of samples.filter((each) => each.language === 'json')) {
      expect(() => JSON.parse(sample.code) as unknown, sample.name).not.toThrow();
    }
  });

  it('set up only variables the samples are given', () => {
    const setups = code.filter((sample) => sample.mode === 'setup');
    expect(setups.length).toBeGreaterThan(0);
    for (const line of setups.flatMap((sample) => sample.code.split('\n'))) {
      const name = /^export ([A-Z_]+)=\S+/.exec(line)?.[1];
      expect(name && name in env, `setup line "${line}"`).toBe(true);
    }
  });

  it('have TypeScript samples that type-check against the SDK', () => {
    expect(typeErrors([...files.values()])).toBe('');
  }, 60_000);
});

describe('every sample', () => {
  for (const sample of executed) {
    if (sample.mode === 'service') {
      it(`${sample.name} starts a service that becomes ready`, async () => {
        const { ready, output } = await runService(sample);
        expect(ready, output).toBe(true);
      }, 150_000);
      continue;
    }
    it(`${sample.name} runs and exits 0`, async (context) => {
      // pg_dump refuses a server newer than itself; CI's second run uses the machine's PostgreSQL.
      if (sample.attributes.requires === 'pg_dump' && pgDumpMajor() < serverMajor) context.skip();
      const { code: exitCode, output } = await runSample(sample);
      expect(exitCode, output).toBe(0);
    }, 90_000);
  }
});

describe('the receiver sample', () => {
  function signed(id: string, body: string, secret = env.WEBHOOK_SECRET ?? ''): Request {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    return new Request('http://receiver.test/hooks', {
      method: 'POST',
      body,
      headers: { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
    });
  }

  it('accepts a signed webhook once, acknowledges its repeat, and rejects a forged one', async () => {
    const receiver = samples.find((sample) => sample.attributes.id === 'receiver');
    const secretBefore = process.env.WEBHOOK_SECRET;
    process.env.WEBHOOK_SECRET = env.WEBHOOK_SECRET;
    // Test files share the process (vitest.config.ts: isolate false).
    onTestFinished(() => {
      if (secretBefore === undefined) delete process.env.WEBHOOK_SECRET;
      else process.env.WEBHOOK_SECRET = secretBefore;
    });
    const { handleWebhook } = (await import(pathToFileURL(files.get(receiver!)!).href)) as {
      handleWebhook: (request: Request) => Promise<Response>;
    };

    expect((await handleWebhook(signed('evt_1', '{"user":42}'))).status).toBe(204);
    expect((await handleWebhook(signed('evt_1', '{"user":42}'))).status).toBe(200);
    const forged = signed('evt_2', '{"user":42}', `whsec_${randomBytes(32).toString('base64')}`);
    const rejected = await handleWebhook(forged);
    expect([rejected.status, await rejected.text()]).toEqual([400, 'invalid_signature']);
  });
});
