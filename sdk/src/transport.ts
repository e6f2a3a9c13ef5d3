import ky, { type KyInstance } from 'ky';
import { toSdkError } from './errors/to-sdk-error.js';
import { retryPolicy, toKyRetry, type RetryOptions } from './retry-policy.js';
import { type Route, pathOf } from './routes.js';
import { SDK_VERSION } from './version.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the service runs, e.g. `https://webhooks.example.com` (the client adds `/api/v1/…`). */
  baseUrl: string;
  /**
   * An API key (`whs_…`); it is sent as `Authorization: Bearer <apiKey>`. Required unless `headers`
   * carry another credential.
   */
  apiKey?: string;
  /**
   * Headers sent with every call. The web dashboard calls the API with its session this way
   * (`x-csrf-token` and `x-team-id`; the browser adds the cookie). `apiKey` takes precedence over
   * an `authorization` header given here.
   */
  headers?: Record<string, string>;
  /** How long one attempt may wait for a response, in milliseconds. Default 10 000. */
  timeout?: number;
  /**
   * Retries of GET, PUT, DELETE and of creates (which carry an `Idempotency-Key`, so a retry never
   * creates twice); a number is the limit, 0 turns them off.
   */
  retry?: RetryOptions | number;
  /** A `fetch` to use instead of the global one (instrumentation, tests, other runtimes). */
  fetch?: typeof globalThis.fetch;
}

/** Options every call accepts. */
export interface RequestOptions {
  /** Aborts the call, including retries waiting to run; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of the calls that create. */
export interface CreateOptions extends RequestOptions {
  /**
   * The create's `Idempotency-Key` (1–255 printable ASCII characters). By default every create
   * gets a fresh random key, which covers the client's own retries; pass your own (say, an order
   * id) to also make a create safe to repeat after your process restarts. The service remembers a
   * key for 24 hours.
   */
  idempotencyKey?: string;
}

/** What one call sends besides its route. */
export interface Call extends RequestOptions {
  id?: string;
  query?: object;
  body?: unknown;
  /** Sent as `Idempotency-Key`; it also makes a POST retryable. */
  idempotencyKey?: string;
}

/** Sends a call to a route and resolves to the parsed JSON body, or rejects with an SDK error. */
export type Send = <T>(route: Route, call: Call) => Promise<T>;

const DEFAULT_TIMEOUT_MS = 10_000;

/** Query parameters as strings, leaving out the undefined ones. */
export function toSearchParams(query: object | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

function validated(options: ClientOptions): ClientOptions {
  if (!/^https?:$/.test(URL.parse(options.baseUrl)?.protocol ?? '')) {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL such as https://webhooks.example.com, got "${options.baseUrl}"`,
    );
  }
  if (!options.apiKey && !options.headers)
    throw new TypeError('apiKey is required (or headers that authenticate)');
  return options;
}

function createKy(options: ClientOptions, timeout: number): KyInstance {
  return ky.create({
    prefix: options.baseUrl,
    headers: {
      ...options.headers,
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      accept: 'application/json',
      'user-agent': `webhook-scheduler-sdk/${SDK_VERSION}`,
    },
    timeout,
    retry: toKyRetry(retryPolicy(options.retry)),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The HTTP layer of a client: one ky instance and the mapping of its errors. */
export function createTransport(options: ClientOptions): Send {
  const timeout = validated(options).timeout ?? DEFAULT_TIMEOUT_MS;
  const api = createKy(options, timeout);
  const keyedRetry = toKyRetry(retryPolicy(options.retry), { keyed: true });
  return async <T>(route: Route, call: Call): Promise<T> => {
    const key = call.idempotencyKey;
    try {
      return await api(pathOf(route, call.id), {
        method: route.method,
        searchParams: toSearchParams(call.query),
        ...(key === undefined ? {} : { headers: { 'idempotency-key': key }, retry: keyedRetry }),
        ...(call.body === undefined ? {} : { json: call.body }),
        ...(call.signal ? { signal: call.signal } : {}),
      }).json<T>();
    } catch (error) {
      throw toSdkError(error, timeout);
    }
  };
}
