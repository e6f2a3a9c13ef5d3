import { describe, expect, it } from 'vitest';
import { clusterFixture, deadlocksSoFar, runConcurrently, teamWithKeys } from '../../test/process-cluster.js';

// Many simultaneous writes of one team's crons and events through two API processes while a
// scheduler process delivers their occurrences, retries them and keeps the crons' health: every
// answer is below 500 and PostgreSQL detects no deadlock (docs/guides/operations.md, "Locks").
const REQUESTS = 1600;
const CONCURRENCY = 48;
const CRONS = 8;

const fixture = clusterFixture();

/** A small deterministic generator, so that a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('concurrent writes of one team’s crons and events', () => {
  it('answer below 500 and never deadlock while the scheduler delivers', async () => {
    // Every limit out of reach: only the locks are under test here.
    const { db, receiver } = fixture;
    receiver.reply('/fail', { status: 500 });
    const live = await fixture.start({
      env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', CRON_HORIZON: '3s' },
    });
    const { keys } = await teamWithKeys(db, 3);
    const next = random(26);
    const pick = <T>(items: T[]): T | undefined => items[Math.floor(next() * items.length)];
    const target = () => `${receiver.url}${next() < 0.5 ? '/ok' : '/fail'}`;
    const retry = { maxRetries: 2, backoffMs: 100, backoffType: 'linear' };
    const cronBody = () => ({
      webhook_url: target(),
      cron_expression: next() < 0.5 ? '* * * * * *' : '*/2 * * * * *',
      retry_config: next() < 0.5 ? retry : null,
      pause_after_failures: next() < 0.5 ? 3 : null,
    });
    const due = (ms: number) => new Date(Date.now() + ms).toISOString();
    const eventBody = (later: boolean) => ({
      webhook_url: target(),
      scheduled_at: due(later ? 3_600_000 : 500 + next() * 1500),
      retry_config: next() < 0.5 ? retry : null,
    });

    const crons: string[] = [];
    const events: string[] = [];
    const send = (n: number, method: string, path: string, body?: unknown) =>
      live.request(n, method, path, { key: keys[n % keys.length] ?? '', body });
    for (let n = 0; n < CRONS; n++) {
      const created = await send(n, 'POST', '/api/v1/crons', cronBody());
      expect(created.status, created.text).toBe(201);
      crons.push(created.body.data.id);
    }
    const deadlocksBefore = await deadlocksSoFar(db);

    const operations: [string, number, (n: number) => Promise<{ status: number; body: any }>][] = [
      ['POST /crons', 2, (n) => send(n, 'POST', '/api/v1/crons', cronBody())],
      ['PUT /crons/{id}', 3, (n) => send(n, 'PUT', `/api/v1/crons/${pick(crons)}`, cronBody())],
      [
        'PATCH /crons/{id}',
        3,
        (n) => {
          const choice = next();
          const body =
            choice < 0.3
              ? { pause_after_failures: next() < 0.5 ? 2 : null }
              : choice < 0.6
                ? { is_active: next() < 0.6 }
                : { cron_expression: next() < 0.5 ? '* * * * * *' : '*/3 * * * * *' };
          return send(n, 'PATCH', `/api/v1/crons/${pick(crons)}`, body);
        },
      ],
      ['POST /crons/{id}/trigger', 3, (n) => send(n, 'POST', `/api/v1/crons/${pick(crons)}/trigger`)],
      [
        'DELETE /crons/{id}',
        1,
        (n) => {
          const id =
            crons.length > CRONS / 2 ? crons.splice(Math.floor(next() * crons.length), 1)[0] : undefined;
          return send(n, 'DELETE', `/api/v1/crons/${id ?? pick(crons)}`);
        },
      ],
      ['POST /events', 2, (n) => send(n, 'POST', '/api/v1/events', eventBody(next() < 0.3))],
      [
        'POST /events/batch',
        1,
        (n) =>
          send(n, 'POST', '/api/v1/events/batch', {
            events: Array.from({ length: 10 }, () => eventBody(false)),
          }),
      ],
      ['PUT /events/{id}', 1, (n) => send(n, 'PUT', `/api/v1/events/${pick(events)}`, eventBody(true))],
      ['POST /events/{id}/replay', 1, (n) => send(n, 'POST', `/api/v1/events/${pick(events)}/replay`)],
      ['DELETE /events/{id}', 1, (n) => send(n, 'DELETE', `/api/v1/events/${pick(events)}`)],
    ];
    const weights = operations.reduce((sum, [, weight]) => sum + weight, 0);
    const choose = () => {
      let left = next() * weights;
      for (const operation of operations) {
        left -= operation[1];
        if (left < 0) return operation;
      }
      return operations[0] as (typeof operations)[number];
    };

    const seen = new Map<string, number>();
    await runConcurrently(REQUESTS, CONCURRENCY, async (n) => {
      const [name, , run] = choose();
      const response = await run(n);
      const key = `${name} ${response.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (response.status === 201 && name === 'POST /crons') crons.push(response.body.data.id);
      if (response.status === 201 && name === 'POST /events') events.push(response.body.data.id);
      return response.status;
    });
    await live.stop();

    // The answers by route and status, and the first errors the processes logged, to read a failure.
    const errors = live
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":50'))
      .slice(0, 5)
      .map((line) => line.slice(0, 600));
    const summary = JSON.stringify({ answers: Object.fromEntries([...seen].sort()), errors }, null, 1);
    expect(
      [...seen.keys()].filter((key) => /\s5\d\d$/.test(key)),
      summary,
    ).toEqual([]);
    expect(live.output()).not.toMatch(/deadlock detected/);
    expect(await deadlocksSoFar(db), summary).toBe(deadlocksBefore);
    // The scheduler was delivering the whole time.
    expect(receiver.requests.length).toBeGreaterThan(CRONS);
  }, 240_000);
});
