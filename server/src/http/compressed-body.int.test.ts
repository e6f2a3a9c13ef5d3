import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidationError } from '../../test/expect.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { routes } from '../../test/routes.js';

let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam();
});
afterAll(() => app.close());

const text = (r: (typeof routes)[number]) => JSON.stringify(r.validBody() ?? {});

// Found by the HTTP fuzz test: a body that does not inflate reached the error middleware as zlib's
// own error and was answered 500. (fetch cannot send a GET with a body; the fuzz test does.)
describe.each(routes.filter((r) => r.route.method !== 'GET'))('$name', (r) => {
  const send = (encoding: string, body: Uint8Array) =>
    app.request(r.route.method, r.path(), {
      key: team.key,
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });

  it.each<[string, string, (text: string) => Uint8Array]>([
    ['gzip', 'plain text', (t) => Buffer.from(t)],
    ['gzip', 'a gzip stream cut short', (t) => gzipSync(t).subarray(0, 12)],
    ['deflate', 'plain text', (t) => Buffer.from(t)],
    ['deflate', 'gzip data', (t) => gzipSync(t)],
  ])('returns 400 VALIDATION_ERROR when a %s body is %s', async (encoding, _, encode) => {
    const issues = expectValidationError(await send(encoding, new Uint8Array(encode(text(r)))));
    expect(issues).toEqual([{ path: [], message: expect.stringMatching(/Content-Encoding/) }]);
  });
});

it.each(routes.filter((r) => r.hasBody && !r.hasId))(
  '$name accepts a valid body compressed with gzip or deflate',
  async (r) => {
    for (const encode of [gzipSync, deflateSync]) {
      const response = await app.request(r.route.method, r.path(), {
        key: team.key,
        body: new Uint8Array(encode(text(r))),
        headers: {
          'content-type': 'application/json',
          'content-encoding': encode === gzipSync ? 'gzip' : 'deflate',
        },
      });
      expect(response.status, response.text).toBe(r.successStatus);
    }
  },
);
