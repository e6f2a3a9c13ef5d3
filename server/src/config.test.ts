import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig DATABASE_URL', () => {
  it.each([
    'postgres://postgres@127.0.0.1:5432/postgres',
    'postgresql://user:p%40ss@db.example.com/app?sslmode=verify-full',
    'postgresql://postgres@/webhooks?host=/var/run/postgresql',
    'postgresql://postgres@/webhooks?host=%2Ftmp%2Fwst-1%2Frun&port=5432',
    'postgresql://postgres@%2Fvar%2Frun%2Fpostgresql/webhooks',
  ])('accepts %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'external', url });
  });

  it.each(['mysql://root@localhost/db', 'localhost:5432', 'postgres://[::1/db'])('refuses %s', (url) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
  });
});

describe('loadConfig webhook settings', () => {
  it('splits WEBHOOK_ALLOWED_HOSTS into trimmed entries', () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' 10.0.0.0/8, hooks.internal ,*.corp.example,,' });
    expect(config.webhook.allowedHosts).toEqual(['10.0.0.0/8', 'hooks.internal', '*.corp.example']);
  });

  it('refuses a WEBHOOK_ALLOWED_HOSTS entry that is not a valid CIDR, naming it', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/33' })).toThrow(
      /WEBHOOK_ALLOWED_HOSTS.*10\.0\.0\.0\/33/,
    );
  });

  it.each([
    ['MISSED_EVENT_TOLERANCE', '90s', (c: ReturnType<typeof loadConfig>) => c.missedEventToleranceMs, 90_000],
    [
      'MISSED_EVENT_TOLERANCE',
      '2h',
      (c: ReturnType<typeof loadConfig>) => c.missedEventToleranceMs,
      7_200_000,
    ],
    ['CRON_HORIZON', '5m', (c: ReturnType<typeof loadConfig>) => c.scheduler.cronHorizonMs, 300_000],
    ['WEBHOOK_TIMEOUT_MS', '5000', (c: ReturnType<typeof loadConfig>) => c.webhook.timeoutMs, 5000],
  ])('reads %s=%s', (name, value, read, expected) => {
    expect(read(loadConfig({ [name]: value }))).toBe(expected);
  });

  it.each([
    ['MISSED_EVENT_TOLERANCE', 'soon'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes'],
    ['SLOT_SHARDS', '0'],
    ['PORT', '70000'],
    ['LEASE_GRACE', '500ms'],
  ])('stops with a reason naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('loadConfig TRUST_PROXY', () => {
  it.each<[string | undefined, boolean | number | string]>([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['1', 1],
    [' 2 ', 2],
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
  ])('reads %j as %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});

describe('loadConfig HTTP limits', () => {
  it('defaults to production values: 10 s for headers, 30 s for a request, 65 s keep-alive, 10,000 connections', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 10_000,
    });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT: '5s',
      HTTP_REQUEST_TIMEOUT: '2m',
      HTTP_KEEP_ALIVE_TIMEOUT: '620s',
      HTTP_MAX_CONNECTIONS: '500',
    });
    expect(config.http).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 620_000,
      maxConnections: 500,
    });
  });

  it.each([
    ['HTTP_HEADERS_TIMEOUT', '0'],
    ['HTTP_REQUEST_TIMEOUT', 'long'],
    ['HTTP_KEEP_ALIVE_TIMEOUT', '0s'],
    ['HTTP_MAX_CONNECTIONS', '0'],
  ])('stops with a reason naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('refuses a headers timeout longer than the request timeout', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT: '40s' })).toThrow(/HTTP_HEADERS_TIMEOUT/);
  });
});

describe('loadConfig limits and metrics', () => {
  it('reads the team limit defaults, durations in days included', () => {
    const config = loadConfig({ MAX_PAYLOAD_BYTES: '1024', MIN_CRON_INTERVAL: '1m', EVENT_RETENTION: '7d' });
    expect(config.teamLimits).toMatchObject({
      max_payload_bytes: 1024,
      min_cron_interval_ms: 60_000,
      event_retention_ms: 7 * 86_400_000,
    });
    expect(loadConfig({ EVENT_RETENTION: '0' }).teamLimits.event_retention_ms).toBe(0);
  });

  it.each([
    ['METRICS_TOKEN', 'short'],
    ['MIN_CRON_INTERVAL', '500ms'],
    ['RATE_LIMIT_PER_SECOND', '0'],
    ['METRICS_PORT', '70000'],
  ])('stops with a reason naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('loadConfig CORS_ORIGINS', () => {
  it('is off by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });

  it('splits CORS_ORIGINS into trimmed origins and keeps * for any origin', () => {
    const config = loadConfig({ CORS_ORIGINS: ' https://app.example.com, http://localhost:5173 ,,*' });
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173', '*']);
  });

  it.each([
    ['https://app.example.com/', /did you mean https:\/\/app\.example\.com\?/],
    ['https://app.example.com/path', /did you mean https:\/\/app\.example\.com\?/],
    ['app.example.com', /"app\.example\.com" is not an origin/],
    ['HTTPS://APP.example.com', /did you mean https:\/\/app\.example\.com\?/],
  ])('refuses %s, naming it and what an origin is', (origin, message) => {
    expect(() => loadConfig({ CORS_ORIGINS: origin })).toThrow(message);
    expect(() => loadConfig({ CORS_ORIGINS: origin })).toThrow(/CORS_ORIGINS/);
  });
});

describe('loadConfig EVENT_RETENTION', () => {
  it('keeps finished events 30 days by default', () => {
    expect(loadConfig({}).teamLimits.event_retention_ms).toBe(30 * 86_400_000);
  });

  it.each([
    ['7d', 7 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
    ['0', 0],
  ])('reads %s as %i ms', (value, ms) => {
    expect(loadConfig({ EVENT_RETENTION: value }).teamLimits.event_retention_ms).toBe(ms);
  });

  it.each(['30', '-1d', '1w', 'forever'])('stops with a reason naming EVENT_RETENTION=%s', (value) => {
    expect(() => loadConfig({ EVENT_RETENTION: value })).toThrow(/EVENT_RETENTION/);
  });
});

describe('loadConfig accounts', () => {
  it('lets anyone sign up, 20 teams a user and 100 keys a team, links to where it listens by default', () => {
    const config = loadConfig({});
    expect(config.accounts).toEqual({
      signUp: 'open',
      maxTeamsPerUser: 20,
      publicUrl: 'http://127.0.0.1:3000',
    });
    expect(config.teamLimits.max_api_keys).toBe(100);
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).accounts.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::1' }).accounts.publicUrl).toBe('http://[::1]:3000');
  });

  it('reads every setting', () => {
    const config = loadConfig({
      SIGNUP: 'invite',
      MAX_TEAMS_PER_USER: '3',
      MAX_API_KEYS: '7',
      PUBLIC_URL: 'https://hooks.example.com',
    });
    expect(config.accounts).toEqual({
      signUp: 'invite',
      maxTeamsPerUser: 3,
      publicUrl: 'https://hooks.example.com',
    });
    expect(config.teamLimits.max_api_keys).toBe(7);
    expect(loadConfig({ SIGNUP: 'closed' }).accounts.signUp).toBe('closed');
  });

  it.each([
    ['SIGNUP', 'invite-only'],
    ['MAX_TEAMS_PER_USER', '0'],
    ['MAX_API_KEYS', '-1'],
    ['PUBLIC_URL', 'hooks.example.com'],
    ['PUBLIC_URL', 'ftp://hooks.example.com'],
    ['PUBLIC_URL', 'https://hooks.example.com/'],
  ])('stops with a reason naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
