import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  type TestDatabase,
  createTestDatabase,
  databaseUrl,
  sendRequest,
  startTestApp,
} from '../../test/harness.js';
import { listeningUrl, startServiceProcess } from '../../test/service-process.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics with METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ metricsToken: TOKEN });
  });
  afterAll(() => app.close());

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer metrics-token-0123456789abcdeX' }],
    ['another scheme', { authorization: `Basic ${TOKEN}` }],
  ])('answers 401 with WWW-Authenticate: Bearer to %s, and no metrics', async (_, headers) => {
    const response = await app.request('GET', '/metrics', { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.text).not.toContain('process_cpu');
  });

  it('serves the metrics to the bearer of the token', async () => {
    const response = await app.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('still answers /healthz without a token', async () => {
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('is open as before', async () => {
    const app = await startTestApp();
    try {
      expect((await app.request('GET', '/metrics')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('METRICS_PORT', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('serves /metrics on its own port only, behind the token', async () => {
    const port = await freePort();
    const service = await startServiceProcess('api', databaseUrl(db.connection), {
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
    });
    try {
      const api = listeningUrl(service);
      // The API port has no /metrics (the dashboard's pages answer there instead).
      const onApi = await sendRequest(api, 'GET', '/metrics', {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(onApi.text).not.toContain('process_cpu');
      const metricsUrl = `http://127.0.0.1:${port}`;
      expect((await sendRequest(metricsUrl, 'GET', '/metrics')).status).toBe(401);
      const served = await sendRequest(metricsUrl, 'GET', '/metrics', {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(served.status).toBe(200);
      expect(served.text).toContain('process_cpu');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 30_000);
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
