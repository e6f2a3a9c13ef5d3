import { describe, expect, it } from 'vitest';
import { emptyRequestFields, requestBodyOf, requestFieldsOf } from './request-fields.js';

const fields = (overrides: Partial<ReturnType<typeof emptyRequestFields>> = {}) => ({
  ...emptyRequestFields(),
  webhookUrl: ' https://example.com/hook ',
  ...overrides,
});

describe('requestBodyOf', () => {
  it('sends nulls for empty headers, payload and retries, and a trimmed URL', () => {
    expect(requestBodyOf(fields())).toEqual({
      body: {
        webhook_url: 'https://example.com/hook',
        method: 'POST',
        headers: null,
        payload: null,
        retry_config: null,
      },
    });
  });

  it('parses headers, any JSON payload and the retry settings', () => {
    const result = requestBodyOf(
      fields({
        headers: '{"x-token": "abc"}',
        payload: '[1, "two"]',
        retry: true,
        maxRetries: '5',
        backoffMs: '250',
        backoffType: 'linear',
      }),
    );
    expect(result).toEqual({
      body: expect.objectContaining({
        headers: { 'x-token': 'abc' },
        payload: [1, 'two'],
        retry_config: { maxRetries: 5, backoffMs: 250, backoffType: 'linear' },
      }),
    });
  });

  it('keeps a payload that is a JSON string or number as such', () => {
    expect(requestBodyOf(fields({ payload: '"hello"' }))).toEqual({
      body: expect.objectContaining({ payload: 'hello' }),
    });
    expect(requestBodyOf(fields({ payload: '0' }))).toEqual({
      body: expect.objectContaining({ payload: 0 }),
    });
  });

  it('reports every problem under the API’s field paths', () => {
    expect(
      requestBodyOf(
        fields({ headers: '["a"]', payload: '{nope', retry: true, maxRetries: 'three', backoffMs: '1.5' }),
      ),
    ).toEqual({
      problems: {
        headers: expect.stringMatching(/JSON object/),
        payload: expect.stringMatching(/^not valid JSON/),
        'retry_config.maxRetries': 'must be a whole number',
        'retry_config.backoffMs': 'must be a whole number of milliseconds',
      },
    });
  });
});

describe('requestFieldsOf', () => {
  it('shows a stored request so that saving it unchanged sends the same request', () => {
    const stored = {
      webhook_url: 'https://example.com/hook',
      method: 'PUT' as const,
      headers: { 'x-a': '1' },
      payload: { a: [1, null] },
      retry_config: { maxRetries: 2, backoffMs: 500, backoffType: 'linear' as const },
    };
    const result = requestBodyOf(requestFieldsOf(stored));
    expect(result).toEqual({ body: { ...stored, retry_config: stored.retry_config } });
  });
});
