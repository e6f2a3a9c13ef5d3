import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { lockIdOf } from '../src/idempotency/idempotency.rules.js';
import type { ApiResponse, RequestOptions, TestApp, TestTeam } from './harness.js';

export const REPLAY_MANY = '/api/v1/events/replay';

/** openapi-responses.int.test.ts's request that checks the answer against the document. */
type Call = (method: string, template: string, options?: RequestOptions) => Promise<ApiResponse>;

/** 201, 400, 401, 413, 422 and 409 of a bulk replay (the caller's team has a finished event). */
export async function expectBulkReplayAnswers(call: Call, app: TestApp, team: TestTeam) {
  const headers = { 'idempotency-key': randomUUID() };
  expect((await call('POST', REPLAY_MANY, { body: { status: 'success' }, headers })).status).toBe(201);
  expect((await call('POST', REPLAY_MANY, { body: { status: 'failed' }, headers })).status).toBe(422);
  expect((await call('POST', REPLAY_MANY, { body: { status: 'pending' } })).status).toBe(400);
  expect((await call('POST', REPLAY_MANY, { key: null, body: { status: 'failed' } })).status).toBe(401);
  const big = { status: 'failed', destination: 'x'.repeat(70 * 1024) };
  expect((await call('POST', REPLAY_MANY, { body: big })).status).toBe(413);
  const held = randomUUID();
  const holder = new pg.Client(app.db.connection);
  await holder.connect();
  try {
    await holder.query('select pg_advisory_lock($1::bigint)', [lockIdOf(team.teamId, held)]);
    const body = { status: 'failed' };
    const response = await call('POST', REPLAY_MANY, { body, headers: { 'idempotency-key': held } });
    expect(response.status).toBe(409);
  } finally {
    await holder.end();
  }
}
