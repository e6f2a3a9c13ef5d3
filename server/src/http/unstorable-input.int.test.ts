import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidationError } from '../../test/expect.js';
import { cronBody, eventBody, makeCron, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
});
afterAll(() => app.close());

type Path = (string | number)[];
/** JSON text of a field's value (or of a whole extra field), and the path blamed for it. */
type Case = [description: string, fields: string, blamed: Path];

/** Bad values PostgreSQL cannot store or JSON.parse silently changes, in the JSON escapes a client sends. */
const payloadCases: Case[] = [
  ['a payload string holds NUL', '"payload":{"a":["x\\u0000y"]}', ['payload', 'a', 0]],
  ['the payload is the NUL string', '"payload":"\\u0000"', ['payload']],
  ['a payload key holds NUL', '"payload":{"k\\u0000":1}', ['payload', 'k\u0000']],
  ['a payload string holds a lone high surrogate', '"payload":{"a":["\\ud800"]}', ['payload', 'a', 0]],
  ['a payload string holds a lone low surrogate', '"payload":{"a":"x\\udc00"}', ['payload', 'a']],
  ['a payload string holds reversed surrogates', '"payload":["\\udc00\\ud800"]', ['payload', 0]],
  ['a payload key holds a lone surrogate', '"payload":{"b":{"\\ud800":1}}', ['payload', 'b', '\ud800']],
  ['a payload number overflows', '"payload":{"n":1e400}', ['payload', 'n']],
  ['a payload number overflows negatively', '"payload":[-1e400]', ['payload', 0]],
  ['a payload number underflows to 0', '"payload":{"n":1e-400}', ['payload', 'n']],
  ['a payload integer would be rounded', '"payload":{"id":12345678901234567890}', ['payload', 'id']],
  ['a payload integer is 2^53 + 1', '"payload":{"id":-9007199254740993}', ['payload', 'id']],
  ['a payload fraction has 21 digits', '"payload":[0,3.14159265358979323846]', ['payload', 1]],
  ['a payload integer has 400 digits', `"payload":{"n":1${'0'.repeat(400)}}`, ['payload', 'n']],
  ['a header value holds a lone surrogate', '"headers":{"X-A":"\\ud800"}', ['headers', 'X-A']],
  ['a header name holds NUL', '"headers":{"X-\\u0000":"v"}', ['headers', 'X-\u0000']],
  ['webhook_url holds NUL', '"webhook_url":"https://example.com/\\u0000"', ['webhook_url']],
  ['webhook_url holds a lone surrogate', '"webhook_url":"https://example.com/\\udfff"', ['webhook_url']],
];

const cronCases: Case[] = [
  ['cron_expression holds NUL', '"cron_expression":"* * * * *\\u0000"', ['cron_expression']],
  ['timezone holds a lone surrogate', '"timezone":"Europe/Paris\\ud800"', ['timezone']],
];

/** Raw bytes that are not UTF-8: a decoder would replace them with U+FFFD and store the text altered. */
const rawByteCases: [string, number[]][] = [
  ['a surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
  ['an invalid byte', [0xff]],
  ['an overlong encoding', [0xc0, 0xaf]],
  ['a sequence cut short', [0xe2, 0x82]],
];

/** `valid` as JSON text with `fields` replacing or adding fields (later keys win in JSON.parse). */
const withFields = (valid: object, fields: string) => `${JSON.stringify(valid).slice(0, -1)},${fields}}`;

const resources = [
  {
    name: 'events',
    collection: '/api/v1/events',
    valid: () => eventBody(),
    cases: payloadCases,
    existing: async () => (await makeEvent(app.orm.em.fork(), team.teamId)).id,
  },
  {
    name: 'crons',
    collection: '/api/v1/crons',
    valid: () => cronBody(),
    cases: [...payloadCases, ...cronCases],
    existing: async () => (await makeCron(app.orm.em.fork(), team.teamId)).id,
  },
];

/** Every row of the team's events and crons, to show a refused request stored nothing. */
const snapshot = () =>
  Promise.all([
    app.sql('select * from events where team_id = $1 order by id', [team.teamId]),
    app.sql('select * from crons where team_id = $1 order by id', [team.teamId]),
  ]);

describe.each(resources)('$name', (resource) => {
  let existingId: string;
  beforeAll(async () => {
    existingId = await resource.existing();
  });
  const verbs = [
    { verb: 'POST', path: () => resource.collection },
    { verb: 'PUT', path: () => `${resource.collection}/${existingId}` },
  ];

  describe.each(verbs)('$verb', ({ verb, path }) => {
    it.each(resource.cases)('returns 400 VALIDATION_ERROR when %s', async (_, fields, blamed) => {
      const before = await snapshot();
      const body = withFields(resource.valid(), fields);
      const issues = expectValidationError(await app.request(verb, path(), { key: team.key, body }));
      expect(issues).toEqual([{ path: blamed, message: expect.any(String) }]);
      expect(await snapshot()).toEqual(before);
    });

    it.each(rawByteCases)('returns 400 VALIDATION_ERROR when the body holds %s', async (_, bytes) => {
      const before = await snapshot();
      const text = withFields(resource.valid(), '"payload":"a#b"');
      const [head = '', tail = ''] = text.split('#');
      const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
      const response = await app.request(verb, path(), {
        key: team.key,
        body: new Uint8Array(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(expectValidationError(response)).toEqual([
        { path: [], message: expect.stringMatching(/UTF-8/) },
      ]);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('names the character in the message', async () => {
    const body = withFields(resource.valid(), '"payload":{"a":"\\u0000"}');
    const response = await app.request('POST', resource.collection, { key: team.key, body });
    expect(expectValidationError(response)[0]?.message).toMatch(/NUL.*U\+0000/);
  });

  it.each<[string, string, unknown]>([
    [
      'the largest exact integers',
      '[9007199254740991,-9007199254740991]',
      [9007199254740991, -9007199254740991],
    ],
    ['the largest and smallest doubles', '[1.7976931348623157e308,5e-324]', [1.7976931348623157e308, 5e-324]],
    ['a 16-digit number with a fraction', '1234567890123456.5', 1234567890123456.5],
    ['an exponent written large', '1E+2', 100],
    ['a long digit string', '"12345678901234567890"', '12345678901234567890'],
    ['a surrogate pair and U+FFFD', '"\\ud83d\\ude00\\ufffd"', '\u{1f600}\ufffd'],
    ['a raw emoji and a raw U+FFFD', '"😀�"', '\u{1f600}\ufffd'],
    ['the text "\\u0000" escaped', '"\\\\u0000"', '\\u0000'],
  ])('stores %s as sent', async (_, payload, stored) => {
    const body = withFields(resource.valid(), `"payload":${payload}`);
    const response = await app.request('POST', resource.collection, { key: team.key, body });
    expect(response.status, response.text).toBe(201);
    const read = await app.request('GET', `${resource.collection}/${response.body.data.id}`, {
      key: team.key,
    });
    expect(read.body.data.payload).toEqual(stored);
  });
});

describe('dashboard bodies', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUp(app);
  });

  it('returns 400 VALIDATION_ERROR on ["name"] when a team name holds NUL', async () => {
    const response = await app.request(
      'POST',
      '/api/dashboard/teams',
      as(user, { body: '{"name":"a\\u0000"}' }),
    );
    expect(expectValidationError(response)).toEqual([{ path: ['name'], message: expect.any(String) }]);
  });

  it('returns 400 VALIDATION_ERROR on ["password"] when a sign-up password holds NUL', async () => {
    const body = '{"email":"nul@example.com","password":"correct horse\\u0000battery"}';
    const response = await app.request('POST', '/api/dashboard/session/sign-up', { body });
    expect(expectValidationError(response)).toEqual([{ path: ['password'], message: expect.any(String) }]);
  });

  it('returns 400 VALIDATION_ERROR on ["email"] when a sign-up email holds a lone surrogate', async () => {
    const body = '{"email":"a\\ud800@example.com","password":"correct horse battery"}';
    const response = await app.request('POST', '/api/dashboard/session/sign-up', { body });
    expect(expectValidationError(response)).toEqual([{ path: ['email'], message: expect.any(String) }]);
  });
});
