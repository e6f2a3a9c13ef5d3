import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, inject } from 'vitest';
import { createOrm } from '../src/db/orm.js';
import { rawQuery } from '../src/shared/raw-query.js';
import { adminQuery, dropDatabase } from './admin-query.js';

/**
 * A database of the test file's own, created empty and dropped after it: the file runs the
 * migrations it needs (`orm().migrator.up({ to })`), so it can write rows as an older release did.
 */
export function unmigratedDatabase(prefix: string, poolSize: number) {
  const admin = inject('adminConnection');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  let created: MikroORM | undefined;
  beforeAll(async () => {
    await adminQuery(admin, `create database ${name}`);
    created = await createOrm({ ...admin, database: name }, poolSize);
  });
  afterAll(async () => {
    await created?.close();
    await dropDatabase(admin, name);
  });

  const orm = (): MikroORM => {
    if (!created) throw new Error('the database is created in beforeAll');
    return created;
  };
  const sql = <T extends object>(statement: string, params: unknown[] = []) =>
    rawQuery<T>(orm().em.fork(), statement, params);
  /** A team, written as a row; returns its id. */
  const addTeam = async (): Promise<string> => {
    const id = randomUUID();
    await sql(
      `insert into teams (id, name, signing_secret, created_at, updated_at) values ($1, 't', 'whsec_t', now(), now())`,
      [id],
    );
    return id;
  };
  return { orm, sql, addTeam, connection: { ...admin, database: name } };
}
