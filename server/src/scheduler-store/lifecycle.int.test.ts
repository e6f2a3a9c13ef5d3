import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase, databaseUrl } from '../../test/harness.js';
import { startServiceProcess } from '../../test/service-process.js';

// The built binary with its default settings: a 30 s lease grace, the case where Agenda's job
// watchdog timer used to keep a stopped process alive for half a minute.

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('process lifecycle', () => {
  it('exits with 0 within seconds of SIGTERM once its jobs have run', async () => {
    const service = await startServiceProcess('all', databaseUrl(db.connection), { LEASE_GRACE: '30s' });
    // Let the reconcile job run at least once, so Agenda has armed its watchdog.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const asked = Date.now();
    expect(await service.stop()).toBe(0);
    expect(Date.now() - asked).toBeLessThan(10_000);
  }, 30_000);

  it('exits at once with a one-line reason when its port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const failure = await startServiceProcess('all', databaseUrl(db.connection), {
        PORT: String(port),
      }).then(
        () => new Error('it started'),
        (error: unknown) => error as Error,
      );
      expect(failure.message).toMatch(/EADDRINUSE/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      blocker.close();
    }
  }, 30_000);
});
