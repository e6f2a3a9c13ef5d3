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
