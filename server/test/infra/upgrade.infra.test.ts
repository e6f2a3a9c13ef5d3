import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { adminQuery, dropDatabase } from '../admin-query.js';
import { databaseUrl, sendRequest } from '../harness.js';
import { type Receiver, eventually, startReceiver } from '../receiver.js';
import {
  SERVICE_BIN,
  type ServiceProcess,
  firstKey,
  listeningUrl,
  startServiceProcess,
} from '../service-process.js';
import { PREVIOUS_RELEASE, previousRelease } from './previous-release.js';

// A rolling upgrade as docs/guides/self-hosting.md#upgrading describes it: the previous release's
// api and scheduler on one PostgreSQL under steady load, the new release's `migrate`, the new
// processes started, the old ones stopped — no webhook lost, none sent twice outside the stop
// window, no 5xx.

const run = promisify(execFile);
const running: ServiceProcess[] = [];
let receiver: Receiver;
let oldBin: string;
let url: string;
let removeDatabase: () => Promise<void>;

beforeAll(async () => {
  oldBin = await previousRelease();
  receiver = await startReceiver();
  const admin = inject('adminConnection');
  const name = `wst_upgrade_${randomBytes(4).toString('hex')}`;
  // Empty, not the migrated template: the previous release migrates it to its own schema.
  await adminQuery(admin, `create database ${name}`);
  removeDatabase = async () => {
    await dropDatabase(admin, name);
  };
  url = databaseUrl({ ...admin, database: name });
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all(running.map((service) => service.kill()));
  await receiver?.close();
  await removeDatabase?.();
});

async function start(role: 'api' | 'scheduler', bin: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(role, url, {}, bin);
  running.push(service);
  return service;
}

/** Creates events through whichever API processes are in rotation, as a load balancer would. */
class SteadyLoad {
  readonly created: string[] = [];
  readonly failures: string[] = [];
  apis: string[] = [];
  #stopped = false;
  #loop: Promise<void> = Promise.resolve();

  constructor(private readonly key: string) {}

  start(): void {
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
  }

  async #run(): Promise<void> {
    for (let turn = 0; !this.#stopped; turn += 1) {
      const api = this.apis[turn % this.apis.length] ?? '';
      // Due 1–6 s later: events made through one release are sent by the other.
      const scheduledAt = new Date(Date.now() + 1000 + ((turn * 977) % 5000)).toISOString();
      const created = await this.#call(api, 'POST', '/api/v1/events', {
        webhook_url: `${receiver.url}/upgrade`,
        scheduled_at: scheduledAt,
        payload: { turn },
      });
      if (created?.status === 201) this.created.push(created.body.data.id as string);
      // Reads too: each release lists rows the other wrote.
      if (turn % 5 === 0) await this.#call(api, 'GET', '/api/v1/events?limit=20');
      // The load's pace, not a wait for a condition.
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  }

  async #call(api: string, method: string, path: string, body?: unknown) {
    try {
      const response = await sendRequest(api, method, path, { key: this.key, body });
      if (response.status >= 500 || (method === 'POST' && response.status !== 201)) {
        this.failures.push(`${method} ${path} via ${api}: ${response.status} ${response.text.slice(0, 200)}`);
      }
      return response;
    } catch (error) {
      this.failures.push(`${method} ${path} via ${api}: ${String(error)}`);
      return undefined;
    }
  }
}

const deliveredIds = () => new Set(receiver.requests.map((request) => String(request.headers['webhook-id'])));

/** Waits until `count` more events were created and `delivered` more calls arrived than now. */
async function progress(load: SteadyLoad, count: number, delivered: number): Promise<void> {
  const created = load.created.length;
  const calls = receiver.requests.length;
  await eventually(
    () =>
      Promise.resolve({ created: load.created.length - created, calls: receiver.requests.length - calls }),
    (now) => now.created >= count && now.calls >= delivered,
    60_000,
  );
}

describe(`a rolling upgrade from ${PREVIOUS_RELEASE}`, () => {
  it(
    'loses no webhook, sends none twice outside the stop window and answers no 5xx',
    async () => {
      const oldApi = await start('api', oldBin);
      const oldScheduler = await start('scheduler', oldBin);
      const load = new SteadyLoad(await firstKey(oldApi));
      load.apis = [listeningUrl(oldApi)];
      load.start();
      await progress(load, 40, 10);

      const migrated = await run(process.execPath, [SERVICE_BIN, 'migrate', '--json'], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
      });
      expect(migrated.stdout).toContain('"migrated":true');
      await progress(load, 20, 10);

      const newApi = await start('api', SERVICE_BIN);
      const newScheduler = await start('scheduler', SERVICE_BIN);
      load.apis = [...load.apis, listeningUrl(newApi)];
      await progress(load, 40, 20);

      const stopWindow = { from: Date.now(), to: 0 };
      // Out of the rotation first, as a load balancer drains it; then SIGTERM, which drains both.
      load.apis = [listeningUrl(newApi)];
      expect(await oldApi.stop()).toBe(0);
      expect(await oldScheduler.stop()).toBe(0);
      stopWindow.to = Date.now();
      await progress(load, 40, 10);
      await load.stop();

      expect(load.failures).toEqual([]);
      const missing = () => Promise.resolve(load.created.filter((id) => !deliveredIds().has(id)));
      expect(await eventually(missing, (ids) => ids.length === 0, 120_000)).toEqual([]);

      const times = new Map<string, number[]>();
      for (const request of receiver.requests) {
        const id = String(request.headers['webhook-id']);
        times.set(id, [...(times.get(id) ?? []), request.at]);
      }
      const repeated = [...times].filter(([, at]) => at.length > 1);
      const outside = repeated.filter(([, at]) => at.every((t) => t < stopWindow.from || t > stopWindow.to));
      expect(outside).toEqual([]);
      process.stderr.write(
        `upgrade: ${load.created.length} events, 0 lost, ${repeated.length} sent twice (all in the ` +
          `${stopWindow.to - stopWindow.from} ms stop window), no 5xx\n`,
      );
      expect(newScheduler.child.exitCode).toBeNull();
    },
    10 * 60_000,
  );
});
