import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from './key-cache.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { eventually } from '../../test/receiver.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const list = (key: string) => app.request('GET', '/api/v1/events', { key });

describe('cached API keys', () => {
  it('returns 401 for a cached key soon after it is revoked directly in the database', async () => {
    const team = await app.createTeam();
    expect((await list(team.key)).status).toBe(200);
    await app.sql('update api_keys set revoked_at = now() where id = $1', [team.keyId]);
    await eventually(
      () => list(team.key),
      (response) => response.status === 401,
      2000,
    );
  });

  it('returns 401 for a cached key soon after it expires by a changed expiry', async () => {
    const team = await app.createTeam();
    expect((await list(team.key)).status).toBe(200);
    await app.sql(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [team.keyId]);
    await eventually(
      () => list(team.key),
      (response) => response.status === 401,
      2000,
    );
  });

  it('returns 401 for a cached key soon after it is deleted', async () => {
    const team = await app.createTeam();
    expect((await list(team.key)).status).toBe(200);
    await app.sql('delete from api_keys where id = $1', [team.keyId]);
    await eventually(
      () => list(team.key),
      (response) => response.status === 401,
      2000,
    );
  });

  it('stops caching while the change listener is disconnected', async () => {
    const team = await app.createTeam();
    expect((await list(team.key)).status).toBe(200);
    await app.sql(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'webhook-scheduler-keys' and datname = current_database()`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Revoked while nobody listens: no notification can reach the cache.
    await app.sql('update api_keys set revoked_at = now() where id = $1', [team.keyId]);
    expect((await list(team.key)).status).toBe(401);
  });
});

describe('a key revoked by this process', () => {
  it('is dropped from the cache at once, and a read taken before the drop is not cached', async () => {
    const cache = new KeyCache(app.db.connection, pino({ level: 'silent' }));
    await cache.start();
    try {
      const key = { id: 'k', teamId: 't', keyHash: 'hash', expiresAt: null, revokedAt: null };
      cache.set(key, Date.now(), cache.version);
      expect(cache.get('hash', Date.now())).toEqual(key);
      const readBefore = cache.version;
      cache.forget(['hash']);
      expect(cache.get('hash', Date.now())).toBeUndefined();
      cache.set(key, Date.now(), readBefore);
      expect(cache.get('hash', Date.now())).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});
