import http from 'node:http';
import fc from 'fast-check';
import pg from 'pg';
import { UNAUTHORIZED_MESSAGE } from '@webhook-scheduler/contract';
import type { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bodies } from './expect.js';
import { makeCron, makeCrons, makeEvent, makeEvents } from './factories.js';
import { type FuzzIds, type FuzzRequest, requestArb } from './fuzz/requests.js';
import { sendRaw } from './fuzz/send.js';
import { type ApiResponse, type TestApp, type TestTeam, startTestApp } from './harness.js';
import { type RouteCase, routes } from './routes.js';

// `npm test` replays a fixed seed with a modest run count; `npm run fuzz -w server` runs many more
// with a random seed, printed for replay (FUZZ_SEED=… FUZZ_RUNS=… npm run fuzz -w server).
const FUZZING = process.env.FUZZ === '1';
const RUNS = Number(process.env.FUZZ_RUNS ?? (FUZZING ? 3000 : 300));
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : FUZZING
    ? Date.now() % 2 ** 31
    : 20_261_123;

let app: TestApp;
let own: TestTeam;
let other: TestTeam;
let ids: FuzzIds;
/** Resources of each kind per team; a deleted one is put back, so that the pool never runs dry. */
const POOL = 5;
let client: pg.Client;
const agent = new http.Agent({ keepAlive: true });

beforeAll(async () => {
  app = await startTestApp();
  own = await app.createTeam('own');
  other = await app.createTeam('other');
  const em = app.orm.em.fork();
  const make = async (teamId: string) => ({
    events: (await makeEvents(em, teamId, POOL)).map((event) => event.id),
    crons: (await makeCrons(em, teamId, POOL)).map((cron) => cron.id),
  });
  ids = { own: await make(own.teamId), other: await make(other.teamId) };
  client = new pg.Client(app.db.connection);
  await client.connect();
});
afterAll(async () => {
  agent.destroy();
  await client.end();
  await app.close();
});

/** A digest of every row of events and crons: equal digests, nothing stored. */
async function digest(): Promise<unknown> {
  const { rows } = await client.query(
    `select (select md5(coalesce(string_agg(e::text, ',' order by e.id), '')) from events e) as events,
            (select md5(coalesce(string_agg(c::text, ',' order by c.id), '')) from crons c) as crons`,
  );
  return rows[0];
}

/**
 * The route that answers the request: the generated one, or the one sharing its path with the
 * method sent instead (GET on `crons.create`'s path is `crons.list`); undefined for neither.
 */
function routeOf(request: FuzzRequest): RouteCase | undefined {
  const path = routes.find((r) => r.name === request.routeName)?.route.path;
  return routes.find((r) => r.route.path === path && r.route.method === request.method);
}

function send(request: FuzzRequest): Promise<ApiResponse> {
  const key = request.auth === 'own' ? own.key : request.auth === 'other' ? other.key : undefined;
  const headers = { ...request.headers };
  const authorization = key === undefined ? request.authorization : `Bearer ${key}`;
  if (authorization !== undefined) headers.authorization = authorization;
  return sendRaw(app.url, agent, { method: request.method, path: request.path, headers, body: request.body });
}

const isList = (request: FuzzRequest) => {
  const route = routeOf(request);
  return route?.route.method === 'GET' && !route.hasId;
};

/** docs/reference/behaviour.md#pagination-past-the-end: a list page past the end (`page > 0 && page * limit >= total`) is a 500. */
async function expectOutOfRangePage(request: FuzzRequest, response: ApiResponse): Promise<void> {
  expect(isList(request), `a 500 from a route other than a list: ${response.text}`).toBe(true);
  expect(response.body?.error?.code).toBe('INTERNAL_SERVER_ERROR');
  const [path = '', query = ''] = request.path.split('?');
  const params = new URLSearchParams(query);
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit') ?? 100);
  params.set('page', '0');
  params.set('limit', '1');
  const first = await send({
    ...request,
    path: `${path}?${params.toString()}`,
    headers: {},
    body: undefined,
  });
  expect(first.status, first.text).toBe(200);
  const total = Number(first.body.data && first.body.pagination.total);
  expect(page > 0 && page * limit >= total, `page ${page} × ${limit} is within ${total}`).toBe(true);
}

function expectErrorShape(response: ApiResponse): void {
  const parsed = bodies.error.safeParse(response.body);
  expect(parsed.success, `not the error shape: ${response.text.slice(0, 500)}`).toBe(true);
  const error = parsed.data?.error;
  if (error?.code === 'VALIDATION_ERROR') {
    expect(Array.isArray(error.details), 'VALIDATION_ERROR details is an array').toBe(true);
  }
  if (error?.code === 'UNAUTHORIZED') expect(error.message).toBe(UNAUTHORIZED_MESSAGE);
}

function expectSuccess(request: FuzzRequest, response: ApiResponse): void {
  const route = routeOf(request);
  if (!route) return expect.fail(`${response.status} from a method the path has no route for`);
  const schema = (route.route.responses as Record<number, z.ZodTypeAny>)[response.status];
  expect(schema, `undocumented status ${response.status}`).toBeDefined();
  const parsed = schema?.safeParse(response.body);
  expect(parsed?.success, `body does not match the contract: ${response.text.slice(0, 500)}`).toBe(true);
  if (request.text === undefined || !route.hasBody || response.status >= 300) return;
  // What was accepted is stored as sent: the payload comes back equal to the one JSON.parse reads.
  const sent = JSON.parse(request.text) as { payload?: unknown; events?: { payload?: unknown }[] };
  // A PATCH without a payload keeps the stored one.
  if (route.route.method === 'PATCH' && !('payload' in sent)) return;
  const { data } = response.body as { data: { payload: unknown } | { payload: unknown }[] };
  // A batch answers its events in the order sent.
  const pairs: [unknown, unknown][] = Array.isArray(data)
    ? data.map((event, i) => [event.payload, sent.events?.[i]?.payload])
    : [[data.payload, sent.payload]];
  for (const [stored, given] of pairs) expect(stored).toEqual(JSON.parse(JSON.stringify(given ?? null)));
}

/** How many answers of each status and code the run saw, printed after a fuzz run. */
const seen = new Map<string, number>();

async function check(request: FuzzRequest): Promise<void> {
  const before = await digest();
  const response = await send(request);
  const kind = `${response.status} ${String(response.body?.error?.code ?? '')}`.trim();
  seen.set(kind, (seen.get(kind) ?? 0) + 1);
  expect(response.headers.get('x-request-id'), 'x-request-id header').toBeTruthy();
  if (request.auth !== 'own' && request.auth !== 'other') expect(response.status).toBe(401);
  if (response.status >= 500) await expectOutOfRangePage(request, response);
  if (response.status >= 400) expectErrorShape(response);
  else expectSuccess(request, response);
  if (response.status >= 300) expect(await digest(), 'a refused request stored something').toEqual(before);
  else await putBackDeleted(request);
}

async function putBackDeleted(request: FuzzRequest): Promise<void> {
  const route = routeOf(request);
  if (route?.route.method !== 'DELETE') return;
  const id = decodeURIComponent(request.path.split('/')[4]?.split('?')[0] ?? '').toLowerCase();
  const em = app.orm.em.fork();
  if (route.name.startsWith('events.')) await makeEvent(em, own.teamId, { id });
  else await makeCron(em, own.teamId, { id });
}

it(
  'answers any request to /api/v1 without a 5xx (but the out-of-range page), in the error shape, storing nothing when refused',
  async () => {
    process.stdout.write(`http fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n`);
    await fc.assert(fc.asyncProperty(requestArb(routes, ids), check), { seed: SEED, numRuns: RUNS });
    if (FUZZING) process.stdout.write(`http fuzz answers: ${JSON.stringify(Object.fromEntries(seen))}\n`);
  },
  Math.max(60_000, RUNS * 1000),
);
