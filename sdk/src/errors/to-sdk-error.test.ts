import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, server, testClient, useMockApi } from '../../test/msw.js';
import { type ErrorCode, WebhookSchedulerError, isWebhookSchedulerError } from '../index.js';
import { codeForStatus } from './to-sdk-error.js';

useMockApi();

const EVENT_ID = '6d7a1f3b-2c4e-4b8a-9f01-5e6d7c8b9a02';

function answerWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  server.use(
    http.all(`${BASE_URL}/api/v1/*`, () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers: { 'content-type': 'text/html', ...headers } })
        : HttpResponse.json(body as Record<string, unknown>, { status, headers }),
    ),
  );
}

async function failure(call: Promise<unknown>): Promise<WebhookSchedulerError> {
  const error: unknown = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookSchedulerError);
  return error as WebhookSchedulerError;
}

describe('error responses', () => {
  it.each<[number, ErrorCode, string]>([
    [401, 'UNAUTHORIZED', 'Unauthorized. Invalid or missing API key.'],
    [404, 'NOT_FOUND', 'Event not found'],
    [413, 'VALIDATION_ERROR', 'Validation failed: request body is larger than the 1048576 byte limit'],
    [500, 'INTERNAL_SERVER_ERROR', 'Internal server error'],
  ])(
    'maps %i %s to a WebhookSchedulerError with its code, message and request id',
    async (status, code, message) => {
      answerWith(status, { error: { code, message } }, { 'x-request-id': 'req-123' });

      const error = await failure(testClient({ retry: 0 }).events.get(EVENT_ID));

      expect(error).toMatchObject({ status, code, message, requestId: 'req-123', details: undefined });
      expect(error.name).toBe('WebhookSchedulerError');
    },
  );

  it('keeps the field problems of a 400 VALIDATION_ERROR', async () => {
    const details = [{ path: ['scheduled_at'], message: 'scheduled_at must be in the future' }];
    answerWith(400, { error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details } });

    const error = await failure(
      testClient().events.create({
        webhook_url: 'https://example.com',
        scheduled_at: '2000-01-01T00:00:00Z',
      }),
    );

    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details });
  });

  it('keeps details.currentStatus of a 400 BAD_REQUEST', async () => {
    const body = {
      error: {
        code: 'BAD_REQUEST',
        message: 'Only pending events can be updated',
        details: { currentStatus: 'success' },
      },
    };
    answerWith(400, body);

    const error = await failure(
      testClient().events.update(EVENT_ID, {
        webhook_url: 'https://example.com',
        scheduled_at: '2030-01-01T00:00:00Z',
      }),
    );

    expect(error).toMatchObject({ code: 'BAD_REQUEST', details: { currentStatus: 'success' } });
  });

  it('derives the code from the status when the body is not the API error shape', async () => {
    answerWith(404, '<html>nginx: not found</html>');

    const error = await failure(testClient().crons.get(EVENT_ID));

    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: undefined });
    expect(error.message).toContain('HTTP 404');
  });

  it('derives the code from the status when the body names an unknown code', async () => {
    answerWith(400, { error: { code: 'SOMETHING_NEW', message: 'new' } });

    const error = await failure(testClient().crons.get(EVENT_ID));

    expect(error.code).toBe('BAD_REQUEST');
  });
});

describe('codeForStatus', () => {
  it.each<[number, ErrorCode]>([
    [400, 'BAD_REQUEST'],
    [401, 'UNAUTHORIZED'],
    [403, 'BAD_REQUEST'],
    [404, 'NOT_FOUND'],
    [413, 'VALIDATION_ERROR'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_SERVER_ERROR'],
    [502, 'INTERNAL_SERVER_ERROR'],
  ])('maps %i to %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});

describe('isWebhookSchedulerError', () => {
  it('recognises the error and rejects look-alikes', () => {
    const error = new WebhookSchedulerError({ status: 404, code: 'NOT_FOUND', message: 'Event not found' });
    expect(isWebhookSchedulerError(error)).toBe(true);
    expect(isWebhookSchedulerError(new Error('Event not found'))).toBe(false);
    expect(isWebhookSchedulerError({ status: 404, code: 'NOT_FOUND' })).toBe(false);
    expect(isWebhookSchedulerError(null)).toBe(false);
  });
});
