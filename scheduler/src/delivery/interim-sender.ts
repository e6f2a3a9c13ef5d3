import type { Sender, WebhookOutcome, WebhookRequest } from '../ports.js';

/** INTERIM until the undici sender lands: no SSRF guard, no signatures, no bounded read. */
export function createInterimSender(options: { timeoutMs: number; userAgent: string }): Sender {
  return {
    async send(request: WebhookRequest): Promise<WebhookOutcome> {
      const startedAt = new Date();
      const started = performance.now();
      const hasBody = request.payload !== null && request.method !== 'GET' && request.method !== 'HEAD';
      try {
        const response = await fetch(request.url, {
          method: request.method,
          headers: {
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
            ...request.headers,
            'user-agent': options.userAgent,
            'webhook-id': request.webhookId,
            'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
          },
          ...(hasBody ? { body: JSON.stringify(request.payload) } : {}),
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const body = (await response.text()).slice(0, 1024);
        return {
          ok: response.status >= 200 && response.status < 300,
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body,
          durationMs: Math.round(performance.now() - started),
          error: response.ok ? null : `HTTP ${response.status}`,
          permanent: false,
          startedAt,
        };
      } catch (error) {
        return {
          ok: false,
          status: null,
          headers: null,
          body: null,
          durationMs: Math.round(performance.now() - started),
          error: error instanceof Error ? error.message : String(error),
          permanent: false,
          startedAt,
        };
      }
    },
    close: async () => {},
  };
}
