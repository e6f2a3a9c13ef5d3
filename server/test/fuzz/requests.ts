import fc from 'fast-check';
import type { RouteCase } from '../routes.js';
import { bodyArb } from './bodies.js';

/** Ids of resources the fuzzed requests may address, by team and collection. */
export interface FuzzIds {
  own: { events: string[]; crons: string[] };
  other: { events: string[]; crons: string[] };
}

/** Whose credentials a request carries; only `own` and `other` are valid keys. */
export type Auth = 'own' | 'other' | 'none' | 'unknown' | 'malformed';

/** One generated request against a route of the contract. */
export interface FuzzRequest {
  /** The route's name in the contract, e.g. `events.update`. */
  routeName: string;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  auth: Auth;
  /** `Bearer …` or any other Authorization value, for `unknown` and `malformed`. */
  authorization: string | undefined;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /** The body's JSON text when its bytes were sent unaltered, to compare with what was stored. */
  text: string | undefined;
}

/** Escapes `decodeURIComponent` refuses, and some it accepts that mean something else. */
const ESCAPES = [
  '%ZZ',
  '%FF',
  '%',
  '%C0%AF',
  '%ED%A0%80',
  '%E2%82',
  '%%',
  '%00',
  '%2F',
  '%0A',
  '%25',
  '%u0041',
];

/** `encodeURIComponent`, which throws on a lone surrogate: that one is sent as its raw UTF-8. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const printable = fc.string({
  unit: fc.constantFrom(...Array.from(' !"#$%&()*+,-./0123456789:;<=>?@ABCZ[]^_`abcz{|}~')),
});

/** Mostly an id of the caller's own resource of the route's kind, so that requests can succeed. */
function idArb(route: RouteCase, ids: FuzzIds): fc.Arbitrary<string> {
  const [mine, theirs] = route.name.startsWith('events.')
    ? (['events', 'crons'] as const)
    : (['crons', 'events'] as const);
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ids.own[mine]) },
    fc.constantFrom(...ids.other[mine], ...ids.own[theirs]),
    fc.uuid().map((id) => (id.length % 2 ? id : id.toUpperCase())),
    fc.constantFrom(...ESCAPES),
    fc.tuple(fc.uuid(), fc.constantFrom(...ESCAPES)).map(([id, escape]) => id + escape),
    fc
      .string({ unit: 'binary', minLength: 1, maxLength: 40 })
      .map(encodeSegment)
      // URLs resolve dot segments, which would send the request to another route.
      .filter((segment) => segment !== '.' && segment !== '..'),
  );
}

const queryKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('page', 'limit') },
  { weight: 3, arbitrary: fc.constantFrom('status', 'cron_id', 'is_active') },
  fc.constantFrom('sort', 'colour', '__proto__', 'page[]', 'status[a]'),
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '2',
    '1000',
    '1001',
    '-1',
    '1.5',
    '1e3',
    '9007199254740993',
    '',
    'pending',
    'failed',
  ),
  fc.constantFrom('processing', 'success', 'true', 'false', '%ZZ', '%', '%00', '%ED%A0%80'),
  fc.nat({ max: 3000 }).map(String),
  fc.uuid(),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeSegment),
);
const queryArb = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`));

const authArb = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Auth>('own') },
  { weight: 2, arbitrary: fc.constant<Auth>('other') },
  fc.constantFrom<Auth>('none', 'unknown', 'malformed'),
);
const malformedAuthorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Basic dXNlcjpwYXNz',
    'bearer whs_x',
    `Bearer whs_${'a'.repeat(300)}`,
    'Token abc',
  ),
  printable.map((text) => `Bearer ${text.trim()}`),
);
const extraHeadersArb = fc.dictionary(
  fc.constantFrom(
    'x-team-id',
    'cookie',
    'x-csrf-token',
    'accept',
    'accept-charset',
    'x-request-id',
    'origin',
  ),
  printable.map((text) => text.trim()),
  { maxKeys: 3 },
);

/** Requests against `route`: its own method mostly, any path id, query, credentials, headers and body. */
export function requestArb(routes: RouteCase[], ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.route.method) },
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        ),
        id: idArb(route, ids),
        query: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, queryArb),
        auth: authArb,
        unknownKey: fc.string({
          unit: fc.constantFrom(...Array.from('abcXYZ0189')),
          minLength: 32,
          maxLength: 40,
        }),
        malformed: malformedAuthorization,
        extra: extraHeadersArb,
        body: bodyArb(route),
      })
      .map(({ method, id, query, auth, unknownKey, malformed, extra, body }): FuzzRequest => {
        const authorization =
          auth === 'unknown' ? `Bearer whs_${unknownKey}` : auth === 'malformed' ? malformed : undefined;
        return withDescription({
          routeName: route.name,
          method,
          path: `${route.route.path.replace(':id', id)}${query}`,
          auth,
          authorization,
          headers: { ...extra, ...body.headers },
          body: body.body,
          text: body.text,
        });
      }),
  );
}

/** Counterexamples print as the request a person would replay. */
function withDescription(request: FuzzRequest): FuzzRequest {
  const body = request.body && JSON.stringify(Buffer.from(request.body).toString('latin1'));
  const text = `${request.method} ${request.path} auth=${request.auth} authorization=${JSON.stringify(request.authorization)} headers=${JSON.stringify(request.headers)} body(latin1)=${body}`;
  return Object.assign(request, { [fc.toStringMethod]: () => text });
}
