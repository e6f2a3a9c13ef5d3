// Open-loop API load: requests leave at their planned times whatever the answers do, and each
// latency counts from the planned time (so a stalled service cannot hide its queue).
import { Pool } from 'undici';
import { percentile } from '../processes.ts';

export interface PlannedRequest {
  /** The name latencies are reported under. */
  route: string;
  method: 'GET' | 'POST';
  path: string;
  key: string;
  body?: unknown;
}

export interface RouteFigures {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers that were not 2xx (or a 404 the plan expected), by status. */
  unexpected: Record<string, number>;
}

export interface LoadFigures {
  /** Requests planned within the measured window, by route; unexpected answers of the lead's too. */
  routes: Record<string, RouteFigures>;
  /** Requests planned in the lead before it (pools and connections opening), all routes together. */
  lead: Omit<RouteFigures, 'unexpected'>;
}

/**
 * Sends `next()` at `perSecond` for `leadMs + durationMs`; resolves once all answered, with figures
 * per route for the requests planned after the lead.
 */
export async function openLoop(
  base: string,
  perSecond: number,
  { leadMs, durationMs }: { leadMs: number; durationMs: number },
  next: () => PlannedRequest,
): Promise<LoadFigures> {
  const pool = new Pool(base, { connections: 128, pipelining: 1 });
  const latencies = new Map<string, number[]>();
  const leadLatencies: number[] = [];
  const unexpected = new Map<string, Record<string, number>>();
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  const send = (plannedAt: number) => {
    const planned = next();
    const body = planned.body === undefined ? null : JSON.stringify(planned.body);
    const request = pool
      .request({
        method: planned.method,
        path: planned.path,
        headers: { authorization: `Bearer ${planned.key}`, 'content-type': 'application/json' },
        body,
      })
      .then(async (response) => {
        await response.body.dump();
        const latency = performance.now() - plannedAt;
        if (plannedAt < started + leadMs) leadLatencies.push(latency);
        else {
          const list = latencies.get(planned.route) ?? [];
          list.push(latency);
          latencies.set(planned.route, list);
        }
        if (response.statusCode >= 300) {
          const counts = unexpected.get(planned.route) ?? {};
          counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
          unexpected.set(planned.route, counts);
        }
      })
      .catch((error: unknown) => {
        const counts = unexpected.get(planned.route) ?? {};
        const name = error instanceof Error ? error.name : 'error';
        counts[name] = (counts[name] ?? 0) + 1;
        unexpected.set(planned.route, counts);
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  };
  const intervalMs = 1000 / perSecond;
  const total = Math.floor((leadMs + durationMs) / intervalMs);
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(Math.floor((now - started) / intervalMs) + 1, total);
      while (sent < due) send(started + sent++ * intervalMs);
      if (sent >= total) resolve();
      else setTimeout(tick, 2);
    };
    tick();
  });
  await Promise.all(pending);
  await pool.close();
  const routes: Record<string, RouteFigures> = {};
  for (const [route, list] of [...latencies].sort(([a], [b]) => a.localeCompare(b)))
    routes[route] = { ...latencyFigures(list), unexpected: unexpected.get(route) ?? {} };
  return { routes, lead: latencyFigures(leadLatencies) };
}

function latencyFigures(list: number[]): Omit<RouteFigures, 'unexpected'> {
  const sorted = list.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    requests: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}
