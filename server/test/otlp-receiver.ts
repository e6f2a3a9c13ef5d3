import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 2 server, 3 client. */
  kind: number;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, string | number | boolean>;
}

export const SPAN_KIND = { server: 2, client: 3 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttributes };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        links?: { traceId: string; spanId: string }[];
        attributes?: OtlpAttributes;
        status?: { code?: number };
      }[];
    }[];
  }[];
}

function flat(attributes: OtlpAttributes): Record<string, string | number | boolean> {
  return Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue === undefined ? undefined : Number(value.intValue)) ??
        value.boolValue ??
        value.doubleValue ??
        '',
    ]),
  );
}

/** Decodes one OTLP/HTTP JSON export request into its spans. */
export function decodeOtlpJson(body: OtlpExport): ExportedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = flat(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
        attributes: flat(span.attributes),
        statusCode: span.status?.code ?? 0,
        resource,
      })),
    );
  });
}

/** A real OTLP/HTTP collector on loopback: it accepts JSON trace exports and keeps their spans. */
export interface OtlpReceiver {
  /** The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  url: string;
  spans: ExportedSpan[];
  /** Requests that were not a JSON export to /v1/traces (there should be none). */
  refused: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${req.method ?? ''} ${req.url ?? ''} ${type}`);
        res.writeHead(400).end();
        return;
      }
      spans.push(...decodeOtlpJson(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
