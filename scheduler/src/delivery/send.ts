import type { HttpMethod } from '@webhook-scheduler/contract';
import { Agent, Client } from 'undici';
import { exchange } from './exchange.js';
import { describeFailure } from './failure.js';
import { webhookSignature } from './sign.js';
import { createDnsResolve } from './dns-resolve.js';
import { webhookTarget } from './origin.js';
import { createTargetPolicy, guardedConnector, type ResolveHost } from './ssrf-guard.js';

/** One outbound webhook call. */
export interface WebhookRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  /** Sent as JSON; null sends no body (and GET/HEAD never send one). */
  payload: unknown;
  /** The original event's id, stable across retries (`webhook-id`). */
  webhookId: string;
  /** 0..2 `whsec_…` secrets; two during a rotation give two signatures. */
  signingSecrets: string[];
  /** The event's own deadline (`timeout_ms`): the sender's `timeoutMs` caps it; null or absent takes that. */
  timeoutMs?: number | null;
}

/** What happened, as recorded on the event. */
export interface WebhookOutcome {
  /** A 2xx status arrived and the body was read within the deadline. */
  ok: boolean;
  /** null when no response arrived. */
  status: number | null;
  /** Lowercase names, at most 50 headers / 8 KB, `set-cookie` redacted; null without a response. */
  headers: Record<string, string> | null;
  /** The first 1024 bytes as UTF-8 ("" for an empty body); null without a response. */
  body: string | null;
  /** Whole milliseconds from the start of the call to the end of the capture. */
  durationMs: number;
  /** null on success; one human sentence otherwise. */
  error: string | null;
  /** The SSRF guard refused the target: retrying cannot help. */
  permanent: boolean;
  startedAt: Date;
}

/** How the sender behaves; built once from the configuration. */
export interface SenderOptions {
  /** One deadline for connect, response headers and body read (`WEBHOOK_TIMEOUT_MS`), the longest a call may have. */
  timeoutMs: number;
  /** `WEBHOOK_ALLOW_PRIVATE_TARGETS`: call any address. */
  allowPrivateTargets: boolean;
  /** `WEBHOOK_ALLOWED_HOSTS`: hostnames, `*.suffix`, IPs or CIDRs allowed although private. */
  allowedHosts: string[];
  userAgent: string;
  /** Keep-alive connections per origin (default 128). */
  connectionsPerOrigin?: number;
  /** Test seam for name resolution; default: c-ares (`createDnsResolve`), every address. */
  lookup?: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;
}

/** Sends webhooks over one keep-alive connection pool. */
export interface Sender {
  /** Makes the call; never throws: every failure is an outcome. */
  send(request: WebhookRequest): Promise<WebhookOutcome>;
  /**
   * Makes the call unless `mayStart`, asked right before the request's first byte is written, says
   * no: then nothing was sent and the result is undefined.
   */
  send(request: WebhookRequest, mayStart: () => boolean): Promise<WebhookOutcome | undefined>;
  /** Closes the pool after the calls in flight. */
  close(): Promise<void>;
}

const CONNECTIONS_PER_ORIGIN = 128;

/** The kept-alive connection pool, and a one-off connection for a call that must not reuse one. */
interface Dispatchers {
  pooled: Agent;
  fresh: (origin: string) => Client;
}

/**
 * Creates the sender: redirects are never followed, at most 64 KiB of a response is read, and a
 * target the SSRF guard refuses fails permanently. Throws only on an invalid allow-list.
 */
export function createSender(options: SenderOptions): Sender {
  const policy = createTargetPolicy(options);
  const resolve: ResolveHost = options.lookup ?? createDnsResolve();
  // undici follows no redirects unless a redirect interceptor is composed in; none is. HTTP/1.1
  // only (undici 8 offers h2 by default): one request per connection keeps limits and aborts simple.
  const connection = {
    allowH2: false,
    pipelining: 1,
    // The sender's own deadline rules; undici's idle timers only back it up (they run on a coarse
    // clock and would otherwise race it with a different message).
    headersTimeout: options.timeoutMs + 1000,
    bodyTimeout: options.timeoutMs + 1000,
    connect: guardedConnector(policy, resolve, options.timeoutMs),
  };
  const agent = new Agent({
    ...connection,
    connections: options.connectionsPerOrigin ?? CONNECTIONS_PER_ORIGIN,
  });
  const dispatchers: Dispatchers = {
    pooled: agent,
    fresh: (origin) => new Client(origin, connection),
  };
  function send(request: WebhookRequest): Promise<WebhookOutcome>;
  function send(request: WebhookRequest, mayStart: () => boolean): Promise<WebhookOutcome | undefined>;
  function send(request: WebhookRequest, mayStart?: () => boolean): Promise<WebhookOutcome | undefined> {
    return deliver(dispatchers, options, request, mayStart);
  }
  return { send, close: () => agent.close() };
}

function outgoing(request: WebhookRequest, userAgent: string, timestamp: number) {
  const headers: Record<string, string> = {};
  if (request.headers !== null) {
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  }
  const bodyless = request.method === 'GET' || request.method === 'HEAD' || request.payload === null;
  const json = bodyless ? undefined : (JSON.stringify(request.payload) as string | undefined);
  if (json !== undefined) headers['content-type'] ??= 'application/json';
  // The service's own headers win over custom ones of the same name: the signature must hold.
  headers['user-agent'] = userAgent;
  headers['accept-encoding'] = 'identity';
  headers['webhook-id'] = request.webhookId;
  headers['webhook-timestamp'] = String(timestamp);
  const signature = webhookSignature(request.signingSecrets, request.webhookId, timestamp, json ?? '');
  if (signature !== undefined) headers['webhook-signature'] = signature;
  return { headers, body: json ?? null };
}

async function deliver(
  dispatchers: Dispatchers,
  options: SenderOptions,
  request: WebhookRequest,
  mayStart: (() => boolean) | undefined,
): Promise<WebhookOutcome | undefined> {
  const startedAt = new Date();
  const started = performance.now();
  const outcome = (fields: Partial<WebhookOutcome>): WebhookOutcome => ({
    ok: false,
    status: null,
    headers: null,
    body: null,
    error: null,
    permanent: false,
    ...fields,
    durationMs: Math.round(performance.now() - started),
    startedAt,
  });
  // The origin stored with the event, from the same parse: the call goes where its limits counted it.
  const target = webhookTarget(request.url);
  if ('problem' in target) return outcome({ error: target.problem, permanent: true });
  let sent: ReturnType<typeof outgoing>;
  try {
    sent = outgoing(request, options.userAgent, Math.floor(startedAt.getTime() / 1000));
  } catch (error) {
    return outcome({ error: `the request could not be built: ${String(error)}` });
  }
  const { origin, hostname, port } = target;
  const timeoutMs = callTimeout(request.timeoutMs, options.timeoutMs);
  const dispatch = {
    origin,
    path: target.path,
    method: request.method,
    headers: sent.headers,
    body: sent.body,
  };
  let result = await exchange(dispatchers.pooled, dispatch, timeoutMs, mayStart);
  const left = timeoutMs - (performance.now() - started);
  // A kept-alive connection the receiver had closed: it never read the request, which goes once
  // more on a new connection within the same deadline.
  if (result.unread && left > 0)
    result = await exchangeOnce(dispatchers.fresh(origin), dispatch, left, mayStart);
  if (result.notStarted) return undefined;
  const { status, headers, body } = result;
  if (result.timedOut) {
    const phase = status === null ? '' : ' while reading the response body';
    return outcome({ status, headers, body, error: `timed out after ${timeoutMs} ms${phase}` });
  }
  if (result.failure !== undefined) {
    return outcome({
      status,
      headers,
      body,
      ...describeFailure(result.failure, { hostname, port }),
    });
  }
  const ok = status !== null && status >= 200 && status < 300;
  return outcome({ ok, status, headers, body, error: ok || status === null ? null : statusError(status) });
}

/** The deadline of one call: the event's own, never longer than the service's. */
export function callTimeout(requested: number | null | undefined, cap: number): number {
  return requested === null || requested === undefined ? cap : Math.min(requested, cap);
}

async function exchangeOnce(
  client: Client,
  dispatch: Parameters<typeof exchange>[1],
  timeoutMs: number,
  mayStart: (() => boolean) | undefined,
) {
  try {
    return await exchange(client, dispatch, timeoutMs, mayStart);
  } finally {
    client.destroy().catch(() => undefined);
  }
}

function statusError(status: number): string {
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed, only a 2xx counts`;
  return `HTTP ${status}: the receiver did not answer with a 2xx status`;
}
