import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createClient, verifyWebhook, type WebhookSchedulerClient } from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, eventually, startReceiver } from '../receiver.js';
import { type ComposeProject, buildImage, composeProject, releaseVersion } from './compose-project.js';
import { announceSkip, findEngine } from './engine.js';

// The image and compose.yaml as a user runs them: built from the Containerfile, brought up with the
// engine's compose, a key made with the CLI inside the container, webhooks to a receiver on this
// machine, then a restart of the service and a 10-second database outage under load.

const engine = await findEngine();
if (!engine) announceSkip('the container tests');

const MB = 1024 * 1024;
const image = `webhook-scheduler:test-${randomBytes(3).toString('hex')}`;
let project: ComposeProject;
let receiver: Receiver;
let baseUrl: string;
let client: WebhookSchedulerClient;
let secret: string;
const timings: string[] = [];

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push(`${step} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

async function ready(): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/readyz`)).ok;
  } catch {
    return false;
  }
}

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  if (!engine) throw new Error('no engine');
  const container = await project.container('service');
  const out = await engine.exec([
    'exec',
    container,
    'node',
    'server/bin/webhook-scheduler.js',
    ...args,
    '--json',
  ]);
  const last = out.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(last) as Record<string, unknown>;
}

/** Schedules `count` events a few ms apart from `leadMs` on, to /<path>; returns their ids. */
async function scheduleLoad(path: string, count: number, spreadMs: number, leadMs = 1500): Promise<string[]> {
  const start = Date.now() + leadMs;
  const events = await client.events.createMany(
    Array.from({ length: count }, (_, index) => ({
      webhook_url: `${receiver.url}/${path}`,
      scheduled_at: new Date(start + Math.floor((index * spreadMs) / count)).toISOString(),
      payload: { path, index },
    })),
  );
  return events.map((event) => event.id);
}

function delivered(ids: string[]): { missing: string[]; duplicates: number } {
  const wanted = new Set(ids);
  const seen = receiver.requests
    .map((request) => String(request.headers['webhook-id']))
    .filter((id) => wanted.has(id));
  return { missing: ids.filter((id) => !seen.includes(id)), duplicates: seen.length - new Set(seen).size };
}

/**
 * Schedules 200 events over `spreadMs`, brings `fault` on once 20 have arrived, then waits for the
 * service to be ready and for every event to arrive (at least once); returns their ids.
 */
async function underLoad(what: string, spreadMs: number, fault: () => Promise<void>): Promise<string[]> {
  const ids = await scheduleLoad(what, 200, spreadMs);
  await receiver.waitFor(20, (request) => request.path === `/${what}`, 60_000);
  await timed(what, fault);
  await eventually(ready, Boolean, 120_000);
  const result = await eventually(
    () => Promise.resolve(delivered(ids)),
    (now) => now.missing.length === 0,
    180_000,
  );
  process.stderr.write(`${what}: ${ids.length} events, 0 lost, ${result.duplicates} delivered twice\n`);
  return ids;
}

describe.skipIf(!engine)('the container image and compose.yaml', () => {
  beforeAll(async () => {
    if (!engine) return;
    await timed('build', () => buildImage(engine, image));
    baseUrl = `http://127.0.0.1:${await freePort()}`;
    project = composeProject(engine, ['compose.yaml'], {
      WEBHOOK_SCHEDULER_IMAGE: image,
      WEBHOOK_SCHEDULER_PORT: new URL(baseUrl).port,
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      // The receiver is on this machine, a private address as the containers see it.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // info: the shutdown's lines show that SIGTERM reached the service.
      LOG_LEVEL: 'info',
    });
    await timed('up', async () => {
      await project.up();
      await eventually(ready, Boolean, 180_000);
    });
    receiver = await startReceiver(await project.hostAddress());
  }, 30 * 60_000);

  afterAll(async () => {
    if (!engine) return;
    await receiver?.close();
    await timed('down', () => project.down());
    await engine.exec(['rmi', image]).catch(() => '');
    process.stderr.write(`container test steps: ${timings.join(', ')}\n`);
  }, 5 * 60_000);

  it('is labelled with the release version, runs as a non-root user and has node as PID 1', async () => {
    if (!engine) return;
    type Check = { Test: string[] } | undefined;
    const [config] = JSON.parse(await engine.exec(['image', 'inspect', image])) as {
      Config: { Labels: Record<string, string>; Healthcheck?: Check };
      Healthcheck?: Check;
      Size: number;
    }[];
    expect(config?.Config.Labels['org.opencontainers.image.version']).toBe(releaseVersion());
    expect(config?.Config.Labels['org.opencontainers.image.source']).toMatch(/^https:\/\//);
    // Docker keeps it in Config, podman beside it.
    const check = config?.Healthcheck ?? config?.Config.Healthcheck;
    expect(check?.Test.join(' ')).toContain('/readyz');
    const container = await project.container('service');
    expect((await engine.exec(['exec', container, 'id', '-u'])).trim()).not.toBe('0');
    // Exec form: the service itself receives the engine's SIGTERM, no shell or npm in between.
    const init = await engine.exec(['exec', container, 'cat', '/proc/1/cmdline']);
    expect(init.split('\0').slice(0, 2)).toEqual(['node', 'server/bin/webhook-scheduler.js']);
    const [base] = JSON.parse(await engine.exec(['image', 'inspect', 'node:24-bookworm-slim'])) as {
      Size: number;
    }[];
    const size = config?.Size ?? 0;
    const added = size - (base?.Size ?? 0);
    process.stderr.write(
      `image ${Math.round(size / MB)} MB, ${Math.round(added / MB)} MB on top of its base\n`,
    );
    expect(added).toBeLessThan(100 * MB);
  });

  it('answers its HEALTHCHECK once the database is reachable', async () => {
    if (!engine) return;
    const container = await project.container('service');
    // Podman runs health checks from systemd timers, which a container host may not have: ask directly.
    const healthy = async () =>
      engine.name === 'podman'
        ? engine.exec(['healthcheck', 'run', container]).then(
            () => true,
            () => false,
          )
        : (await engine.exec(['inspect', '--format', '{{.State.Health.Status}}', container])).trim() ===
          'healthy';
    await eventually(healthy, Boolean, 60_000);
  });

  it('makes a key with the CLI in the container and delivers signed webhooks to this machine', async () => {
    const team = await cli('teams', 'create', '--name', 'containers');
    const key = await cli('keys', 'create', '--team', String(team.id));
    const secrets = await cli('teams', 'secret', '--team', String(team.id));
    secret = String(secrets.secret);
    client = createClient({ baseUrl, apiKey: String(key.key), retry: 0 });
    const ids = await scheduleLoad('first', 5, 200, 500);
    await receiver.waitFor(5, (request) => request.path === '/first', 60_000);
    const first = receiver.requests.find((request) => request.path === '/first');
    const headers = Object.fromEntries(Object.entries(first?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    await expect(verifyWebhook({ secret, headers, body: first?.body ?? '' })).resolves.toBeTruthy();
    await expect(verifyWebhook({ secret, headers, body: '{"tampered":true}' })).rejects.toThrow();
    expect(delivered(ids).missing).toEqual([]);
  }, 120_000);

  it('loses no webhook when the service container restarts mid-load', async () => {
    if (!engine) return;
    const container = await project.container('service');
    await underLoad('restart', 8000, async () => {
      await engine.exec(['restart', '-t', '40', container], { timeoutMs: 120_000 });
      const logs = await engine.exec(['logs', container]);
      expect(logs).toMatch(/"signal":"SIGTERM"[^\n]*"msg":"shutting down"/);
      expect(logs).toMatch(/"msg":"stopped"/);
    });
  }, 300_000);

  it('loses no webhook and serves the API again after a 10-second database outage', async () => {
    if (!engine) return;
    const database = await project.container('postgres');
    const ids = await underLoad('outage', 15_000, async () => {
      await engine.exec(['stop', '-t', '10', database]);
      // The outage itself, not a wait for a condition: the database stays down this long.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await engine.exec(['start', database]);
    });
    const total = () =>
      client.events.list({ limit: 1 }).then(
        (page) => page.pagination.total,
        () => -1,
      );
    expect(await eventually(total, (events) => events >= ids.length, 120_000)).toBeGreaterThanOrEqual(
      ids.length,
    );
  }, 400_000);

  it('removes its volumes when brought down', async () => {
    expect((await project.volumes()).length).toBeGreaterThan(0);
    await project.down();
    expect(await project.volumes()).toEqual([]);
  }, 300_000);
});
