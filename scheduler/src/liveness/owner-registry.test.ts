import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { poolConnection } from './owner-registry.js';

describe('poolConnection', () => {
  it('keeps the password that pg-pool hides from a spread of its options', () => {
    const pool = new pg.Pool({ host: 'db', user: 'app', password: 'secret-pw', database: 'hooks' });
    expect({ ...pool.options }.password).toBeUndefined();
    expect(poolConnection(pool)).toMatchObject({
      host: 'db',
      user: 'app',
      password: 'secret-pw',
      database: 'hooks',
    });
  });

  it('adds no password when the pool has none', () => {
    expect(poolConnection(new pg.Pool({ host: 'db' }))).not.toHaveProperty('password');
  });
});
