import type { HttpMethod, JsonValue, RetryConfig, RetryConfigInput } from '@webhook-scheduler/sdk';

/** What the event and cron forms edit of the request a webhook sends, as typed text. */
export interface RequestFields {
  webhookUrl: string;
  method: HttpMethod;
  /** A JSON object of strings, or empty. */
  headers: string;
  /** Any JSON value, or empty. */
  payload: string;
  retry: boolean;
  maxRetries: string;
  backoffMs: string;
  backoffType: 'exponential' | 'linear';
}

/** The request part of an EventInput or CronInput. */
export interface RequestBody {
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: JsonValue | null;
  retry_config: RetryConfigInput | null;
}

export const METHODS: HttpMethod[] = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export function emptyRequestFields(): RequestFields {
  return {
    webhookUrl: '',
    method: 'POST',
    headers: '',
    payload: '',
    retry: false,
    maxRetries: '3',
    backoffMs: '1000',
    backoffType: 'exponential',
  };
}

const pretty = (value: unknown) =>
  value === null || value === undefined ? '' : JSON.stringify(value, null, 2);

/** The fields showing a stored cron's or event's request. */
export function requestFieldsOf(resource: {
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: JsonValue | null;
  retry_config: RetryConfig | null;
}): RequestFields {
  const retry = resource.retry_config;
  return {
    webhookUrl: resource.webhook_url,
    method: resource.method,
    headers: pretty(resource.headers),
    payload: pretty(resource.payload),
    retry: retry !== null,
    maxRetries: String(retry?.maxRetries ?? 3),
    backoffMs: String(retry?.backoffMs ?? 1000),
    backoffType: retry?.backoffType ?? 'exponential',
  };
}

function parseJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `not valid JSON (${error instanceof Error ? error.message : 'parse error'})` };
  }
}

function integer(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * The request body the fields describe, or the problems that stop it from being sent, keyed like
 * the API's validation paths. Ranges and URLs are left to the API, which explains them.
 */
export function requestBodyOf(
  fields: RequestFields,
): { body: RequestBody } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  let headers: Record<string, string> | null = null;
  if (fields.headers.trim() !== '') {
    const parsed = parseJson(fields.headers);
    if ('problem' in parsed) problems.headers = parsed.problem;
    else if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      problems.headers = 'must be a JSON object such as {"x-token": "abc"}';
    } else headers = parsed.value as Record<string, string>;
  }
  let payload: JsonValue | null = null;
  if (fields.payload.trim() !== '') {
    const parsed = parseJson(fields.payload);
    if ('problem' in parsed) problems.payload = parsed.problem;
    else payload = parsed.value as JsonValue;
  }
  let retry: RetryConfigInput | null = null;
  if (fields.retry) {
    const maxRetries = integer(fields.maxRetries);
    const backoffMs = integer(fields.backoffMs);
    if (maxRetries === undefined) problems['retry_config.maxRetries'] = 'must be a whole number';
    if (backoffMs === undefined)
      problems['retry_config.backoffMs'] = 'must be a whole number of milliseconds';
    if (maxRetries !== undefined && backoffMs !== undefined) {
      retry = { maxRetries, backoffMs, backoffType: fields.backoffType };
    }
  }
  if (Object.keys(problems).length > 0) return { problems };
  return {
    body: {
      webhook_url: fields.webhookUrl.trim(),
      method: fields.method,
      headers,
      payload,
      retry_config: retry,
    },
  };
}
