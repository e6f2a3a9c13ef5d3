import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { cronBody, eventBody, makeCron, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { idRoutes, routes } from '../../test/routes.js';
import { cronCases, eventCases, headers, retry, sharedCases } from '../../test/bad-bodies.js';

const BODY_LIMIT = 16 * 1024;

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp({ bodyLimitBytes: BODY_LIMIT });
  team = await app.createTeam();
});
afterAll(() => app.close());

/** A valid body with `change` applied; a field set to undefined is left out of the JSON sent. */
function withChange(valid: object, change: Record<string, unknown>): Record<string, unknown> {
  return { ...valid, ...change };
}

const resources = [
  {
    name: 'cron',
    collection: '/api/v1/crons',
    valid: () => cronBody(),
    cases: [...sharedCases, ...cronCases],
    /** A value only the service's business rules refuse. */
    ruleBreaking: { cron_expression: '61 * * * *' },
    existing: async (teamId: string) => (await makeCron(app.orm.em.fork(), teamId)).id,
  },
  {
    name: 'event',
    collection: '/api/v1/events',
    valid: () => eventBody(),
    cases: [...sharedCases, ...eventCases],
    ruleBreaking: { scheduled_at: '2000-01-01T00:00:00Z' },
    existing: async (teamId: string) => (await makeEvent(app.orm.em.fork(), teamId)).id,
  },
];

describe.each(resources)('$name input', (resource) => {
  let existingId: string;
  beforeAll(async () => {
    existingId = await resource.existing(team.teamId);
  });

  const verbs = [
    { verb: 'POST', path: () => resource.collection },
    { verb: 'PUT', path: () => `${resource.collection}/${existingId}` },
  ];

  describe.each(verbs)('$verb', ({ verb, path }) => {
    it('accepts the valid sample body', async () => {
      const response = await app.request(verb, path(), { key: team.key, body: resource.valid() });
      expect(response.status).toBe(verb === 'POST' ? 201 : 200);
    });

    it.each(resource.cases)('returns 400 VALIDATION_ERROR when %s', async (_, change, blamed) => {
      const body = withChange(resource.valid(), change);
      const issues = expectValidationError(await app.request(verb, path(), { key: team.key, body }));
      expect(issues.map((issue) => issue.path)).toContainEqual(blamed);
      expect(issues.every((issue) => issue.message.length > 0)).toBe(true);
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a webhook_url of exactly 2048 characters', { webhook_url: `https://example.com/${'a'.repeat(2028)}` }],
    ['an http webhook_url with a port and query', { webhook_url: 'http://127.0.0.1:8080/hook?a=1#f' }],
    [
      'exactly 50 headers',
      headers(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, 'v']))),
    ],
    ['a header value of exactly 8192 characters', headers({ 'X-A': 'a'.repeat(8192) })],
    ['a header name using every token symbol', headers({ "X-!#$%&'*+.^_`|~1": 'v' })],
    ['a header value with a tab and Latin-1 text', headers({ 'X-A': 'caf\u00e9\tau lait' })],
    ['an empty headers object', headers({})],
    ['a payload nested 60 levels deep', { payload: JSON.parse('['.repeat(60) + ']'.repeat(60)) as unknown }],
    ['retry_config at its lower bounds', retry({ maxRetries: 1, backoffMs: 100 })],
    ['retry_config at its upper bounds', retry({ maxRetries: 10, backoffMs: 5000, backoffType: 'linear' })],
  ])('accepts %s', async (_, change) => {
    const body = withChange(resource.valid(), change);
    const response = await app.request('POST', resource.collection, { key: team.key, body });
    expect(response.status, response.text).toBe(201);
  });

  it('explains that a relative webhook_url cannot be called', async () => {
    const body = withChange(resource.valid(), { webhook_url: '/hooks/1' });
    const issues = expectValidationError(
      await app.request('POST', resource.collection, { key: team.key, body }),
    );
    expect(issues).toEqual([{ path: ['webhook_url'], message: expect.stringMatching(/absolute/) }]);
  });

  it('names every bad field at once', async () => {
    const body = withChange(resource.valid(), { webhook_url: 'ftp://x', method: 'get', extra: 1 });
    const issues = expectValidationError(
      await app.request('POST', resource.collection, { key: team.key, body }),
    );
    const paths = issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining([['webhook_url'], ['method'], ['extra']]));
  });

  it.each(verbs)(
    '$verb names the fields the business rules refuse along with those the contract refuses',
    async ({ verb, path }) => {
      const [field = ''] = Object.keys(resource.ruleBreaking);
      const body = withChange(resource.valid(), { ...resource.ruleBreaking, webhook_url: 'not a url' });
      const issues = expectValidationError(await app.request(verb, path(), { key: team.key, body }));
      expect(issues.map((issue) => issue.path)).toEqual([['webhook_url'], [field]]);
    },
  );

  it('names a business rule’s field once when the contract refuses it too', async () => {
    const [field = ''] = Object.keys(resource.ruleBreaking);
    const body = withChange(resource.valid(), { [field]: '', method: 'get' });
    const issues = expectValidationError(
      await app.request('POST', resource.collection, { key: team.key, body }),
    );
    expect(issues.map((issue) => issue.path.join('.')).sort()).toEqual([field, 'method'].sort());
  });

  it('says that a webhook_url which is no URL is not a valid URL', async () => {
    const body = withChange(resource.valid(), { webhook_url: 'not a url' });
    const issues = expectValidationError(
      await app.request('POST', resource.collection, { key: team.key, body }),
    );
    expect(issues).toEqual([
      {
        path: ['webhook_url'],
        message: 'webhook_url is not a valid URL: it must be absolute, such as https://example.com/hook',
      },
    ]);
  });

  it('names the unknown field in the message', async () => {
    const body = withChange(resource.valid(), { colour: 'blue' });
    const error = expectError(
      await app.request('POST', resource.collection, { key: team.key, body }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.message).toContain('colour');
    expect(error.details).toEqual([{ path: ['colour'], message: expect.stringContaining('colour') }]);
  });

  it('leaves the resource unchanged when a PUT is refused', async () => {
    const before = await app.request('GET', `${resource.collection}/${existingId}`, { key: team.key });
    const body = withChange(resource.valid(), { webhook_url: 'https://changed.example.com', method: 'nope' });
    expectValidationError(
      await app.request('PUT', `${resource.collection}/${existingId}`, { key: team.key, body }),
    );
    const after = await app.request('GET', `${resource.collection}/${existingId}`, { key: team.key });
    expect(after.body).toEqual(before.body);
  });
});

describe.each(routes.filter((r) => r.hasBody))('$name body', (r) => {
  const send = (options: { body?: unknown; headers?: Record<string, string> }) =>
    app.request(r.route.method, r.path(), { key: team.key, ...options });
  // For PUT the id is unknown: a body problem is reported before the lookup could answer 404.

  it.each([
    ['is truncated', '{"webhook_url":'],
    ['has a trailing comma', '{"webhook_url":"https://example.com",}'],
    ['uses single quotes', "{'webhook_url':'https://example.com'}"],
    ['is not JSON at all', 'webhook_url=https://example.com'],
  ])('returns 400 VALIDATION_ERROR when the JSON %s', async (_, body) => {
    const issues = expectValidationError(await send({ body }));
    expect(issues).toEqual([{ path: [], message: expect.stringMatching(/not valid JSON/) }]);
  });

  it.each([
    ['an array', '[]'],
    ['an array of objects', `[${JSON.stringify(r.validBody())}]`],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['true', 'true'],
    ['null', 'null'],
  ])('returns 400 VALIDATION_ERROR when the body is %s', async (_, body) => {
    const issues = expectValidationError(await send({ body }));
    expect(issues).toEqual([{ path: [], message: expect.stringMatching(/must be a JSON object/) }]);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['application/json in latin1', { 'content-type': 'application/json; charset=latin1' }],
  ])('returns 400 VALIDATION_ERROR when the content type is %s', async (_, contentType) => {
    expectValidationError(await send({ body: JSON.stringify(r.validBody()), headers: contentType }));
  });

  it('returns 400 VALIDATION_ERROR when a body comes without a content type', async () => {
    const body = new TextEncoder().encode(JSON.stringify(r.validBody()));
    const issues = expectValidationError(await send({ body }));
    expect(issues[0]?.message).toMatch(/Content-Type/);
  });

  it('returns 400 VALIDATION_ERROR when the body is compressed with an unknown encoding', async () => {
    const headers = { 'content-type': 'application/json', 'content-encoding': 'compress' };
    expectValidationError(await send({ body: JSON.stringify(r.validBody()), headers }));
  });

  it.skipIf(r.requiredPath === null)(
    'returns 400 VALIDATION_ERROR naming the required fields when there is no body',
    async () => {
      const issues = expectValidationError(await send({}));
      expect(issues.map((issue) => issue.path)).toContainEqual(r.requiredPath);
    },
  );

  it.skipIf(r.requiredPath === null)(
    'returns 400 VALIDATION_ERROR naming the required fields when the JSON body is empty',
    async () => {
      const issues = expectValidationError(await send({ body: '' }));
      expect(issues.map((issue) => issue.path)).toContainEqual(r.requiredPath);
    },
  );

  it('returns 413 VALIDATION_ERROR when the body is over the limit', async () => {
    const body = { ...(r.validBody() as object), payload: 'x'.repeat(BODY_LIMIT) };
    const error = expectError(await send({ body }), 413, 'VALIDATION_ERROR');
    expect(error.message).toMatch(/limit/);
  });

  it('returns 413 VALIDATION_ERROR when a chunked body is over the limit', async () => {
    const text = JSON.stringify({ ...(r.validBody() as object), payload: 'x'.repeat(BODY_LIMIT) });
    const response = await fetch(app.url + r.path(), {
      method: r.route.method,
      headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
      body: new Blob([text]).stream(),
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  const withRawPayload = (payload: string) =>
    `${JSON.stringify(r.validBody()).slice(0, -1)},"payload":${payload}}`;

  it('returns 400 VALIDATION_ERROR on payload when the payload nests too deeply', async () => {
    const issues = expectValidationError(
      await send({ body: withRawPayload(`${'['.repeat(5000)}${']'.repeat(5000)}`) }),
    );
    expect(issues).toEqual([{ path: ['payload'], message: expect.stringMatching(/nest/) }]);
  });

  // zod's records drop such keys, so the webhook would be sent without them.
  it('returns 400 VALIDATION_ERROR rather than dropping a __proto__ key of the payload', async () => {
    const issues = expectValidationError(await send({ body: withRawPayload('{"__proto__":{"a":1},"b":2}') }));
    expect(issues).toEqual([{ path: ['payload', '__proto__'], message: expect.any(String) }]);
  });

  it('returns 400 VALIDATION_ERROR rather than dropping a __proto__ header', async () => {
    const valid = JSON.stringify(r.validBody()).slice(0, -1);
    const issues = expectValidationError(await send({ body: `${valid},"headers":{"__proto__":"v"}}` }));
    expect(issues).toEqual([{ path: ['headers', '__proto__'], message: expect.any(String) }]);
  });
});

describe.each(idRoutes)('$name with a malformed id', (r) => {
  it.each([
    ['is prose', 'not-a-uuid'],
    ['is a number', '123'],
    ['is one character short', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'],
    ['has a non-hex character', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g'],
    ['has no dashes', 'a0eebc999c0b4ef8bb6d6bb9bd380a11'],
    ['has braces', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'],
    ['is SQL', "1' or '1'='1"],
  ])('returns 400 VALIDATION_ERROR on ["id"] when the id %s', async (_, id) => {
    const response = await app.request(r.route.method, r.path(id), { key: team.key, body: r.validBody() });
    expect(expectValidationError(response)).toEqual([{ path: ['id'], message: expect.any(String) }]);
  });

  it('returns 404 NOT_FOUND for a well-formed unknown id', async () => {
    const response = await app.request(r.route.method, r.path(randomUUID()), {
      key: team.key,
      body: r.validBody(),
    });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('accepts an uppercase UUID', async () => {
    const id = await r.makeResource(app.orm.em.fork(), team.teamId);
    const response = await app.request(r.route.method, r.path(id.toUpperCase()), {
      key: team.key,
      body: r.validBody(),
    });
    expect(response.status).toBe(r.successStatus);
  });
});

describe('list queries', () => {
  it('rejects an unknown query parameter', async () => {
    for (const path of ['/api/v1/crons?colour=blue', '/api/v1/events?colour=blue']) {
      const issues = expectValidationError(await app.request('GET', path, { key: team.key }));
      expect(issues).toEqual([{ path: ['colour'], message: expect.stringContaining('colour') }]);
    }
  });

  it('accepts every valid query at once', async () => {
    const path = `/api/v1/events?page=0&limit=5&status=pending&cron_id=${randomUUID()}`;
    expectBody(await app.request('GET', path, { key: team.key }), 200, bodies.eventPage);
  });
});
