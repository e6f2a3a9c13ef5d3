import type { ValidationIssue } from '@webhook-scheduler/contract';
import { webhookOrigin } from '@webhook-scheduler/scheduler';

/**
 * The origin a request names (in `field`), written as the service writes origins (`webhookOrigin`),
 * or the problem with it: it must be a bare http(s) origin (no path, query, fragment or user), in
 * any spelling of it.
 */
export function originOf(raw: string, field = 'origin'): { origin: string } | { issue: ValidationIssue } {
  const problem = (message: string) => ({ issue: { path: [field], message: `${field} ${message}` } });
  if (!URL.canParse(raw)) return problem('must be a URL origin such as https://hooks.example.com');
  const url = new URL(raw);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password || raw.endsWith('/'))
    return problem('must be scheme, host and port only, such as https://hooks.example.com');
  const origin = webhookOrigin(raw);
  if (origin === 'null') return problem('must be an http or https origin with a host');
  return { origin };
}
