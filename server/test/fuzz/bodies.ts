import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { RouteCase } from '../routes.js';

/** JSON texts that are odd values: out-of-range and over-precise numbers, NUL, surrogates, deep nesting… */
const oddJson = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '1e-400', '12345678901234567890', '3.14159265358979323846', '-0', '1E2'),
  fc.constantFrom(
    '"\\u0000"',
    '"\\ud800"',
    '"\\udc00\\ud800"',
    '"\\ud83d\\ude00"',
    '{"\\u0000":1}',
    '{"\\udfff":1}',
  ),
  fc.constantFrom(
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
    '{"a":1,"a":2}',
    '[]',
    '{}',
    'null',
  ),
  fc.integer({ min: 0, max: 0xffff }).map((code) => `"\\u${code.toString(16).padStart(4, '0')}"`),
  fc
    .tuple(fc.integer({ min: 1, max: 120 }), fc.boolean())
    .map(([n, array]) => (array ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n))),
  fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), minLength: 1, maxLength: 30 }),
      fc.option(
        fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), minLength: 1, maxLength: 20 }),
      ),
      fc.option(fc.integer({ min: -999, max: 999 })),
    )
    .map(([sign, whole, fraction, exponent]) => {
      const digits = whole.replace(/^0+(?=\d)/, '');
      return `${sign}${digits}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`;
    }),
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }).map((value) => JSON.stringify(value)),
);

const FIELDS = [
  'webhook_url',
  'scheduled_at',
  'method',
  'headers',
  'payload',
  'retry_config',
  'cron_expression',
];

/** The valid body's JSON text with `field` set to the JSON text `value` (a later key wins). */
const withField = (valid: unknown, field: string, value: string) =>
  `${JSON.stringify(valid).slice(0, -1)},${JSON.stringify(field)}:${value}}`;

function bodyTextArb(route: RouteCase): fc.Arbitrary<string> {
  const valid = () => route.validBody() ?? {};
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(null).map(() => JSON.stringify(valid())) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...FIELDS, 'timezone', 'is_active', 'extra'), oddJson)
        .map(([field, value]) => withField(valid(), field, value)),
    },
    { weight: 4, arbitrary: oddJson.map((value) => withField(valid(), 'payload', value)) },
    {
      weight: 4,
      arbitrary: fc.jsonValue().map((value) => withField(valid(), 'payload', JSON.stringify(value))),
    },
    fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.constantFrom('', ' ', '{', '{"webhook_url":', 'nul', '\ufeff{}', '{"a":1}garbage'),
    fc.nat().map((cut) => {
      const text = JSON.stringify(valid());
      return text.slice(0, cut % text.length);
    }),
  );
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/vnd.api+json',
  'multipart/form-data; boundary=x',
  'json',
];
const contentTypeArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  fc.constantFrom(...CONTENT_TYPES),
  fc.constant(undefined),
);

type Encoding = 'none' | 'gzip' | 'fake-gzip' | 'deflate' | 'br' | 'identity' | 'compress';
const encodingArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Encoding>('none') },
  fc.constantFrom<Encoding>('gzip', 'fake-gzip', 'deflate', 'br', 'identity', 'compress'),
);

/** Bytes to splice into the body: invalid UTF-8, NUL, or anything. */
const bytesArb = fc.oneof(
  fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x00], [0xf4, 0x90, 0x80, 0x80]),
  fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 6 }),
);

/** A body as sent, with the headers that describe it. */
export interface Body {
  body: Uint8Array | undefined;
  text: string | undefined;
  headers: Record<string, string>;
}

/** Bodies for `route`: mostly JSON around a valid one, sometimes none, odd bytes or a wrong encoding. */
export function bodyArb(route: RouteCase): fc.Arbitrary<Body> {
  const sent = fc
    .record({
      text: bodyTextArb(route),
      contentType: contentTypeArb,
      encoding: encodingArb,
      splice: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, fc.tuple(fc.nat(), bytesArb)),
    })
    .map(({ text, contentType, encoding, splice }): Body => {
      let bytes = Buffer.from(text);
      if (splice) {
        const at = splice[0] % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(splice[1]), bytes.subarray(at)]);
      }
      const headers: Record<string, string> =
        contentType === undefined ? {} : { 'content-type': contentType };
      if (encoding === 'gzip') bytes = gzipSync(bytes);
      if (encoding !== 'none') headers['content-encoding'] = encoding === 'fake-gzip' ? 'gzip' : encoding;
      return { body: new Uint8Array(bytes), text: splice ? undefined : text, headers };
    });
  const none = fc.constant<Body>({ body: undefined, text: undefined, headers: {} });
  return route.hasBody
    ? fc.oneof({ weight: 12, arbitrary: sent }, none)
    : fc.oneof({ weight: 6, arbitrary: none }, sent);
}
