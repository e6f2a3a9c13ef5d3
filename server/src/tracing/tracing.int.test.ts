import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  type TestDatabase,
  type TestTeam,
  createTestDatabase,
  databaseUrl,
  sendRequest,
  startTestApp,
} from '../../test/harness.js';
import {
  type ExportedSpan,
  type OtlpReceiver,
  SPAN_KIND,
  startOtlpReceiver,
} from '../../test/otlp-receiver.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { type ServiceProcess, listeningUrl, startServiceProcess } from '../../test/service-process.js';

// The built service in a process of its own with OTEL_EXPORTER_OTLP_ENDPOINT set, exporting to a
// real OTLP/HTTP receiver on loopback, delivering to a real webhook receiver.

let otlp: OtlpReceiver;
let receiver: Receiver;
let db: TestDatabase;
let app: TestApp;
let service: ServiceProcess;
let url: string;
let optedIn: TestTeam;
let plain: TestTeam;

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  receiver = await startReceiver();
  db = await createTestDatabase();
  app = await startTestApp({ database: db });
  optedIn = await app.createTeam();
  plain = await app.createTeam();
  await app.sql('update teams set send_traceparent = true where id = $1', [optedIn.teamId]);
  service = await startServiceProcess('all', databaseUrl(db.connection), {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_SERVICE_NAME: 'wst-tracing',
  });
  url = listeningUrl(service);
});
afterAll(async () => {
  await service?.stop();
  await app?.close();
  await db?.drop();
  await receiver?.close();
  await otlp?.close();
});

/** Creates an event through the traced process, as a caller whose own trace is CALLER_TRACE. */
async function create(team: TestTeam, path: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await sendRequest(url, 'POST', '/api/v1/events', {
    key: team.key,
    headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    body: {
      webhook_url: `${receiver.url}${path}`,
      scheduled_at: new Date(Date.now() + 1500).toISOString(),
      ...body,
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data.id as string;
}

const spansWhere = (match: (span: ExportedSpan) => boolean, count = 1) =>
  eventually(
    () => Promise.resolve(otlp.spans.filter(match)),
    (found) => found.length >= count,
    30_000,
  );

/** The span of the request that created `eventId` (its id is stored with the event). */
async function creatingSpan(eventId: string): Promise<ExportedSpan> {
  const [row] = await app.sql<{ trace_context: string | null }>(
    'select trace_context from events where id = $1',
    [eventId],
  );
  const [, traceId, spanId] = TRACEPARENT.exec(row?.trace_context ?? '') ?? [];
  const [span] = await spansWhere((each) => each.spanId === spanId && each.traceId === traceId);
  if (!span) throw new Error('no span of the creating request');
  return span;
}

describe('traces exported over OTLP/HTTP', () => {
  it('exports one span per API request, continuing the caller’s trace', async () => {
    const eventId = await create(plain, '/plain');
    const request = await creatingSpan(eventId);
    expect(request).toMatchObject({
      traceId: CALLER_TRACE,
      parentSpanId: CALLER_SPAN,
      kind: SPAN_KIND.server,
      name: 'POST /api/v1/events',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/api/v1/events',
        'http.response.status_code': 201,
      },
      resource: { 'service.name': 'wst-tracing' },
    });
    expect(otlp.refused).toEqual([]);
  });

  it('exports a span per attempt in a trace of its own, linked to the request that created the event', async () => {
    const eventId = await create(plain, '/linked');
    const request = await creatingSpan(eventId);
    const [attempt] = await spansWhere((span) => span.attributes['webhook.event_id'] === eventId);
    expect(attempt).toMatchObject({
      kind: SPAN_KIND.client,
      parentSpanId: '',
      links: [{ traceId: request.traceId, spanId: request.spanId }],
      attributes: {
        'webhook.id': eventId,
        'webhook.attempt': 0,
        'webhook.team_id': plain.teamId,
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'http.response.status_code': 200,
      },
    });
    expect(attempt?.traceId).not.toBe(CALLER_TRACE);
  });

  it('sends the attempt’s traceparent to the receivers of a team that opted in, and none to others', async () => {
    const tracedId = await create(optedIn, '/traced');
    const plainId = await create(plain, '/untraced');
    const [traced] = await receiver.waitFor(1, (request) => request.path === '/traced');
    const [untraced] = await receiver.waitFor(1, (request) => request.path === '/untraced');
    expect(untraced?.headers.traceparent).toBeUndefined();
    const [, traceId, spanId] = TRACEPARENT.exec(String(traced?.headers.traceparent)) ?? [];
    const [attempt] = await spansWhere((span) => span.attributes['webhook.event_id'] === tracedId);
    expect({ traceId, spanId }).toEqual({ traceId: attempt?.traceId, spanId: attempt?.spanId });
    expect(plainId).not.toBe(tracedId);
  });

  it('links every retry of an event to the request that created it', async () => {
    receiver.reply('/flaky', (_request, count) => ({ status: count === 1 ? 503 : 200 }));
    const eventId = await create(plain, '/flaky', {
      retry_config: { maxRetries: 2, backoffMs: 100, backoffType: 'linear' },
    });
    const request = await creatingSpan(eventId);
    const attempts = await spansWhere((span) => span.attributes['webhook.id'] === eventId, 2);
    const [first, retry] = attempts.sort(
      (a, b) => Number(a.attributes['webhook.attempt']) - Number(b.attributes['webhook.attempt']),
    );
    expect(first).toMatchObject({
      statusCode: 2,
      attributes: { 'http.response.status_code': 503, 'error.type': '503' },
    });
    expect(retry).toMatchObject({ attributes: { 'webhook.attempt': 1, 'http.response.status_code': 200 } });
    for (const span of [first, retry]) {
      expect(span?.links).toEqual([{ traceId: request.traceId, spanId: request.spanId }]);
    }
  });
});
