import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSoon } from '../../test/due-soon.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';

// Without OTEL_EXPORTER_OTLP_ENDPOINT the service has no tracing at all (the test app is built as
// startService builds it then): a team's opt-in has no trace to send, and events keep none.

let app: TestApp;
let receiver: Receiver;
let team: TestTeam;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: {} });
  team = await app.createTeam();
  await app.sql('update teams set send_traceparent = true where id = $1', [team.teamId]);
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

describe('with tracing off', () => {
  it('stores no trace context and sends no traceparent, even to a team that opted in', async () => {
    const created = await dueSoon(async (at) => {
      const response = await app.request('POST', '/api/v1/events', {
        key: team.key,
        headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
        body: { webhook_url: `${receiver.url}/off`, scheduled_at: at },
      });
      expect(response.status, response.text).toBe(201);
      return response;
    }, 500);
    const [call] = await receiver.waitFor(1, (request) => request.path === '/off');
    expect(call?.headers.traceparent).toBeUndefined();
    expect(await app.sql('select trace_context from events where id = $1', [created.body.data.id])).toEqual([
      { trace_context: null },
    ]);
  });
});
