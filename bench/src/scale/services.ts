// The service processes of a bench/scale scenario: one `all` process, or an API process beside one or
// two schedulers (`split`, `catch-up`), each timed from spawn to listening.
import os from 'node:os';
import { type Running, startService } from '../processes.ts';
import { processUse } from './measure.ts';

export interface ServiceProcess {
  role: 'all' | 'api' | 'scheduler';
  port: number;
  running: Running;
  /** Wall-clock ms: where a CPU profile of the process (SCALE_PROFILE) starts. */
  spawnedAt: number;
  startToListeningMs: number;
}

export async function startTimed(
  role: ServiceProcess['role'],
  port: number,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const spawnedAt = Date.now();
  const started = performance.now();
  const running = await startService(role, port, os.tmpdir(), env);
  return { role, port, running, spawnedAt, startToListeningMs: Math.round(performance.now() - started) };
}

/** `schedulers` 0 is one `all` process on `port`; otherwise an API on `port` and schedulers after it. */
export async function startServices(
  schedulers: number,
  port: number,
  env: Record<string, string>,
): Promise<ServiceProcess[]> {
  if (schedulers === 0) return [await startTimed('all', port, env)];
  const started = [await startTimed('api', port, env)];
  for (let k = 1; k <= schedulers; k++) started.push(await startTimed('scheduler', port + k, env));
  return started;
}

export async function stopServices(services: ServiceProcess[]): Promise<void> {
  for (const service of services) await service.running.stop();
}

/** What each process used, for the report. */
export async function servicesUse(services: ServiceProcess[]) {
  return Promise.all(
    services.map(async ({ role, port, startToListeningMs, running }) => ({
      role,
      port,
      startToListeningMs,
      ...(await processUse(running.child.pid)),
    })),
  );
}
