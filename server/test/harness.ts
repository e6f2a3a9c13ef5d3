import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg, { type ClientConfig } from 'pg';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { SlotPlanner } from '@webhook-scheduler/scheduler';
import { inject } from 'vitest';
import { createApp } from '../src/app.js';
import { createKeyAuthenticator } from '../src/auth/key-authenticator.js';
import { createOrm } from '../src/db/orm.js';
import { createApiKey, createTeam } from '../src/teams/teams.service.js';

/** A database of its own for one test file, cloned from the migrated template. */
export interface TestDatabase {
  connection: ClientConfig;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = inject('adminConnection');
  const name = `wst_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `create database ${name} template ${inject('templateDatabase')}`);
  return {
    connection: { ...admin, database: name },
    drop: () => adminQuery(admin, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(admin: ClientConfig, sql: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** What a response looked like: status, parsed JSON body and headers. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A team with a working key. */
export interface TestTeam {
  teamId: string;
  key: string;
  keyId: string;
}

/** The real app on an ephemeral loopback port over its own database. */
export interface TestApp {
  url: string;
  orm: MikroORM;
  db: TestDatabase;
  /** Sends a request; a non-string `body` is sent as JSON. */
  request(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  createTeam(name?: string): Promise<TestTeam>;
  close(): Promise<void>;
}

export async function startTestApp(
  options: { now?: () => Date; bodyLimitBytes?: number } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const orm = await createOrm(db.connection, 5);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const now = options.now ?? (() => new Date());
  const app = createApp({
    orm,
    now,
    scheduling: { planner: new SlotPlanner({ leadMs: 200, shards: 2 }), cronHorizonMs: 60_000 },
    registry: new Registry(),
    logger,
    authenticate: createKeyAuthenticator(orm, logger),
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    isReady: () => orm.isConnected(),
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request: TestApp['request'] = async (method, path, { key, body, headers = {} } = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (key) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };

  return {
    url,
    orm,
    db,
    request,
    createTeam: async (name = 'team') => {
      const em = orm.em.fork();
      const team = await createTeam(em, name, new Date());
      const { apiKey, key } = await createApiKey(em, team.id, { name: 'test' }, new Date());
      return { teamId: team.id, key, keyId: apiKey.id };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await orm.close();
      await db.drop();
    },
  };
}
