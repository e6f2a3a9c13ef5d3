import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../db/orm.js';
import { createApiKey, createTeam } from '../teams/teams.service.js';
import { eventBody } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase, databaseUrl, sendRequest } from '../../test/harness.js';
import { type ServiceProcess, listeningUrl, startServiceProcess } from '../../test/service-process.js';

// Two real API processes on one database serve one key: the key's limit holds for the whole.
const RATE = 40;
// Each process's bucket holds 4 s of its share, so a process that a loaded machine stalls for up to
// that long wastes none of it (with 1 s, a full suite beside it once cost 10 %). A wrong split (a
// process taking the whole rate, or half its share) still falls outside ±10 %.
const BURST = 4 * RATE;
const SECONDS = 10;
const OFFERED_PER_SECOND = 3 * RATE;

let db: TestDatabase;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const service of processes) await service.stop();
  await db.drop();
});

describe('the rate limit across two API processes', () => {
  it('accepts the key’s limit within ±10 % at 3× its rate for 10 s; every refusal is a 429 with Retry-After and creates nothing', async () => {
    const env = { RATE_LIMIT_PER_SECOND: String(RATE), RATE_LIMIT_BURST: String(BURST) };
    for (let i = 0; i < 2; i++)
      processes.push(await startServiceProcess('api', databaseUrl(db.connection), env));
    const urls = processes.map(listeningUrl);
    const orm = await createOrm(db.connection, 2);
    const team = await createTeam(orm.em.fork(), 'rate', new Date());
    const { key } = await createApiKey(orm.em.fork(), team.id, { name: 'load' }, new Date());
    await orm.close();
    // Each process counts the other within a heartbeat (1 s).
    await new Promise((resolve) => setTimeout(resolve, 2500));

    const total = OFFERED_PER_SECOND * SECONDS;
    const started = Date.now();
    const sent = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / OFFERED_PER_SECOND;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // Alternately to each process, as a load balancer would; half creates, half reads.
      const url = urls[i % 2] ?? '';
      sent.push(
        i % 4 < 2
          ? sendRequest(url, 'POST', '/api/v1/events', { key, body: eventBody() })
          : sendRequest(url, 'GET', '/api/v1/events?limit=1', { key }),
      );
    }
    // The requests were offered over the sending window; a loaded machine answers the last ones later.
    const offeredS = (Date.now() - started) / 1000;
    const responses = await Promise.all(sent);
    const elapsedS = (Date.now() - started) / 1000;

    const accepted = responses.filter((r) => r.status === 200 || r.status === 201);
    const refused = responses.filter((r) => r.status === 429);
    expect(accepted.length + refused.length).toBe(total);
    const allowedOffered = RATE * offeredS + BURST;
    const allowed = RATE * elapsedS + BURST;
    const measured = `${accepted.length} accepted of ${total} offered in ${offeredS.toFixed(1)} s (answered in ${elapsedS.toFixed(1)} s): ${allowedOffered.toFixed(0)}–${allowed.toFixed(0)} allowed`;
    expect(accepted.length, measured).toBeGreaterThanOrEqual(0.9 * allowedOffered);
    expect(accepted.length, measured).toBeLessThanOrEqual(1.1 * allowed);
    for (const response of refused) {
      expect(response.body.error.code).toBe('RATE_LIMITED');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const response of responses) expect(response.headers.get('ratelimit-limit')).toBe(String(RATE));

    const created = responses.filter((r) => r.status === 201).length;
    const check = await sendRequest(urls[0] ?? '', 'GET', '/api/v1/events?limit=1', { key });
    // The check itself may be refused: wait for the allowance to come back.
    const count =
      check.status === 200
        ? check.body.pagination.total
        : (
            await new Promise((resolve) => setTimeout(resolve, 2000)).then(() =>
              sendRequest(urls[0] ?? '', 'GET', '/api/v1/events?limit=1', { key }),
            )
          ).body.pagination.total;
    expect(count).toBe(created);
  }, 60_000);
});
