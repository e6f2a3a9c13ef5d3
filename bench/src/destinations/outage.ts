// Scenario 2: a receiver that is down (nothing listens on its port: connection refused) for 60 s
// while 2,000 events with 3 retries fall due, then comes up. A refused connection never reaches a
// process we could count in, so the calls are counted from the service's own records: every attempt
// is an `events` row with its `executed_at` (retries are rows of their own), read from the database
// and checked against the destination's `calls_24h` in the API. Waiting for the circuit is measured
// by the receiver: every event must arrive, and within 30 s of the recovery.
import net from 'node:net';
import type pg from 'pg';
import { waitFor } from '../processes.ts';
import { arrived, readArrivals, startArrivals } from './arrivals.ts';
import { type BenchService, createDueEvents, destination, startBenchService } from './bench-service.ts';
import type { Figure } from './report.ts';

const EVENTS = Number(process.env.DEST_OUTAGE_EVENTS ?? 2000);
const OUTAGE_MS = Number(process.env.DEST_OUTAGE_MS ?? 60_000);
const RECOVERY_AIM_MS = 30_000;
const CIRCUIT_FAILURES = 10;
/** The circuit's first cool-down, doubling on each failed probe (extensions §7; not configurable). */
const FIRST_COOLDOWN_MS = 30_000;
const LEAD_MS = 6000;
const RETRY = { maxRetries: 3, backoffMs: 1000, backoffType: 'exponential' };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

/** Probes a circuit opened at the outage's start may spend before it ends. */
function probesWithin(outageMs: number): number {
  let probes = 0;
  for (let at = FIRST_COOLDOWN_MS, cooldown = FIRST_COOLDOWN_MS; at < outageMs; cooldown *= 2, at += cooldown)
    probes++;
  return probes;
}

/** The destination's circuit, polled each second until `until`: its changes, from the due time. */
async function watchCircuit(bench: BenchService, origin: string, due: number, until: number) {
  const changes: { afterDueMs: number; circuit: unknown; calls: unknown; failures: unknown }[] = [];
  while (Date.now() < until) {
    const seen = await destination(bench, origin).catch(() => undefined);
    const circuit = seen?.circuit;
    if (seen && changes.at(-1)?.circuit !== circuit)
      changes.push({
        afterDueMs: Date.now() - due,
        circuit,
        calls: seen.calls_24h,
        failures: seen.failures_24h,
      });
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, until - Date.now()))));
  }
  return changes;
}

/** Calls started before `before`, by second after the due time. */
async function callsBefore(db: pg.Client, url: string, due: number, before: number) {
  const { rows } = await db.query<{ second: number; calls: string; refused: string }>(
    `select floor(extract(epoch from executed_at) - $2::float8 / 1000)::int as second, count(*) as calls,
            count(*) filter (where response_error is not null) as refused
     from events where webhook_url = $1 and executed_at < $3 group by 1 order by 1`,
    [url, due, new Date(before)],
  );
  return rows.map((row) => ({ second: row.second, calls: Number(row.calls), refused: Number(row.refused) }));
}

/** Originals with a successful attempt, and those whose every attempt has ended and failed. */
async function chains(db: pg.Client, url: string) {
  const { rows } = await db.query<{ delivered: string; failed: string; attempts: string }>(
    `select count(*) filter (where ok) as delivered, count(*) filter (where not ok and not open) as failed,
            sum(attempts) as attempts
     from (select bool_or(status = 'success') as ok, bool_or(status in ('pending', 'processing')) as open,
                  count(*) as attempts
           from events where webhook_url = $1 group by coalesce(retry_of, id)) chain`,
    [url],
  );
  return {
    delivered: Number(rows[0]?.delivered),
    failed: Number(rows[0]?.failed),
    attempts: Number(rows[0]?.attempts),
  };
}

export async function outage(): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/outage`;
  const bench = await startBenchService();
  let receiver: Awaited<ReturnType<typeof startArrivals>> | undefined;
  try {
    const due = Date.now() + LEAD_MS;
    await createDueEvents(bench, EVENTS, url, due, { retry_config: RETRY });
    const circuit = await watchCircuit(bench, origin, due, due + OUTAGE_MS);
    const atRecovery = await destination(bench, origin);
    receiver = await startArrivals(port);
    const recoveredAt = Date.now();
    const db = bench.db;
    const allDelivered = await arrived(receiver.url, '/outage', EVENTS, RECOVERY_AIM_MS * 10)
      .then(() =>
        waitFor(async () => ((await chains(db, url)).delivered >= EVENTS ? true : undefined), 'outcomes'),
      )
      .catch(() => false);
    const after = await chains(db, url);
    const arrivals = await readArrivals(receiver.url, '/outage');
    const lastArrival = arrivals.at.length ? Math.max(...arrivals.at) : NaN;
    const bySecond = await callsBefore(db, url, due, recoveredAt);
    const outageCalls = bySecond.reduce((sum, row) => sum + row.calls, 0);
    const allowed = CIRCUIT_FAILURES + probesWithin(OUTAGE_MS);
    const recoverySeconds = Math.round((lastArrival - recoveredAt) / 100) / 10;
    const figures: Figure[] = [
      {
        figure: `calls during the ${OUTAGE_MS / 1000} s outage`,
        value: outageCalls,
        aim: `≤ ${allowed}`,
        met: outageCalls <= allowed,
      },
      { figure: 'events failed', value: after.failed, aim: '0', met: after.failed === 0 },
      {
        figure: 'all delivered, last one after recovery',
        value: `${after.delivered}/${EVENTS}, ${recoverySeconds} s`,
        aim: `all, ≤ ${RECOVERY_AIM_MS / 1000} s`,
        met: allDelivered && recoverySeconds <= RECOVERY_AIM_MS / 1000,
      },
    ];
    return {
      figures,
      details: {
        events: EVENTS,
        outageMs: OUTAGE_MS,
        outageCallsBySecondAfterDue: bySecond,
        circuit,
        atRecovery,
        firstArrivalAfterRecoveryMs: arrivals.at.length
          ? Math.round(Math.min(...arrivals.at) - recoveredAt)
          : null,
        attempts: after.attempts,
        received: { requests: arrivals.requests, unique: arrivals.unique, duplicates: arrivals.duplicates },
      },
    };
  } finally {
    await receiver?.stop();
    await bench.stop();
  }
}
