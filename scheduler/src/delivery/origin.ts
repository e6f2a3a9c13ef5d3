/**
 * Where a webhook call goes, from one WHATWG parse of its URL: the origin the sender connects to
 * and the per-destination limits count (docs/reference/behaviour.md#destinations), and the request target sent on it.
 */
export interface WebhookTarget {
  /**
   * As `URL.origin` serializes it: `https://hooks.example.com`, `http://127.0.0.1:8080`,
   * `http://[::1]:3000` — lowercase host, IDN in punycode, no trailing dot, IPv6 compressed, the
   * scheme's default port left out (so one origin has one spelling).
   */
  origin: string;
  /** The host as in `origin` (an IPv6 address in brackets). */
  hostname: string;
  /** The TCP port, the scheme's default filled in. */
  port: number;
  /** Path and query: user info and fragment are never sent. */
  path: string;
}

/** Why a URL has no origin a webhook can be sent to. */
export interface TargetProblem {
  problem: string;
}

/**
 * The origin of a URL no webhook is sent to: `URL.origin`'s spelling of an opaque origin. Stored
 * only for rows older than the API's check (which refuses such URLs); the sender fails them.
 */
export const NO_ORIGIN = 'null';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Parses a webhook URL once, the WHATWG way (as browsers, `fetch` and undici do): `:0080` is port 80
 * and left out, `http://a.example\@b.example/` goes to `a.example`, `0x7f.1` is `127.0.0.1`.
 */
export function webhookTarget(url: string): WebhookTarget | TargetProblem {
  const parsed = parse(url);
  if (parsed === undefined) return { problem: `invalid webhook URL: ${url}` };
  const defaultPort = DEFAULT_PORTS[parsed.protocol];
  if (defaultPort === undefined) return { problem: `blocked: ${parsed.protocol} URLs are not delivered` };
  // A trailing dot is the DNS root: `example.com.` is `example.com`. Without its dots a host may
  // read differently (`0x7f.1..` is then 127.0.0.1), so it is parsed once more.
  const bare = parsed.hostname.replace(/\.+$/, '');
  const server =
    bare === parsed.hostname
      ? parsed
      : parse(`${parsed.protocol}//${bare}${parsed.port === '' ? '' : `:${parsed.port}`}`);
  if (bare === '' || server === undefined) return { problem: `invalid webhook URL: ${url} names no host` };
  return {
    origin: server.origin,
    hostname: server.hostname,
    port: server.port === '' ? defaultPort : Number(server.port),
    path: parsed.pathname + parsed.search,
  };
}

/** The origin a webhook URL's calls connect to (`NO_ORIGIN` when there is none): stored with each event. */
export function webhookOrigin(url: string): string {
  const target = webhookTarget(url);
  return 'problem' in target ? NO_ORIGIN : target.origin;
}
