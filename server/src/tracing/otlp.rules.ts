/**
 * Where OTLP/HTTP traces go, from `OTEL_EXPORTER_OTLP_ENDPOINT` as the OpenTelemetry specification
 * reads it: the base URL of every signal, to which `v1/traces` is appended (after its own path).
 */
export function otlpTracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

/** Why `OTEL_EXPORTER_OTLP_ENDPOINT` cannot be used, or undefined. */
export function otlpEndpointProblem(endpoint: string): string | undefined {
  if (!URL.canParse(endpoint)) return 'must be an http(s) URL such as http://collector:4318';
  const { protocol, search, hash } = new URL(endpoint);
  if (protocol !== 'http:' && protocol !== 'https:')
    return 'must be an http(s) URL such as http://collector:4318';
  if (search !== '' || hash !== '') return 'must have no query or fragment';
  return undefined;
}

/**
 * `OTEL_EXPORTER_OTLP_HEADERS`: `name=value` pairs separated by commas, values percent-encoded (the
 * W3C baggage format the specification names), e.g. `authorization=Bearer%20abc,x-team=ops`.
 */
export function parseOtlpHeaders(value: string): { headers: Record<string, string>; problem?: string } {
  const headers: Record<string, string> = {};
  // Problems name the entry by its place, never its text: a header may be a credential.
  for (const [index, pair] of value.split(',').entries()) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim().toLowerCase();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      return { headers: {}, problem: `entry ${index + 1} is not name=value` };
    }
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return { headers: {}, problem: `the value of entry ${index + 1} is not percent-encoded` };
    }
  }
  return { headers };
}
