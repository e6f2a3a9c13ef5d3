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
