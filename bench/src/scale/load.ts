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

/** Sends `next()` at `perSecond` for `durationMs`; resolves with figures per route once all answered. */
export async function openLoop(
  base: string,
  perSecond: number,
  durationMs: number,
  next: () => PlannedRequest,
): Promise<Record<string, RouteFigures>> {
  const pool = new Pool(base, { connections: 128, pipelining: 1 });
  const latencies = new Map<string, number[]>();
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
        const list = latencies.get(planned.route) ?? [];
        list.push(performance.now() - plannedAt);
        latencies.set(planned.route, list);
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
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(Math.floor((now - started) / intervalMs) + 1, Math.floor(durationMs / intervalMs));
      while (sent < due) send(started + sent++ * intervalMs);
      if (sent >= Math.floor(durationMs / intervalMs)) resolve();
      else setTimeout(tick, 2);
    };
    tick();
  });
  await Promise.all(pending);
  await pool.close();
  const figures: Record<string, RouteFigures> = {};
  for (const [route, list] of [...latencies].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = list.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    figures[route] = {
      requests: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
      unexpected: unexpected.get(route) ?? {},
    };
  }
  return figures;
}
