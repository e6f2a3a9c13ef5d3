// Scenario 1: a receiver the team limited to 100 calls/s; 5,000 events due at once. The receiver
// counts arrivals per sliding second; throughput is from the due time to the last arrival.
import { waitFor } from '../processes.ts';
import { finished } from '../seed.ts';
import { arrived, maxInWindow, readArrivals, startArrivals } from './arrivals.ts';
import { type BenchService, createDueEvents, destination, startBenchService } from './bench-service.ts';
import type { Figure } from './report.ts';

const EVENTS = Number(process.env.DEST_RATE_EVENTS ?? 5000);
const RATE = 100;
const LEAD_MS = 8000;

export async function rateLimited(): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const receiver = await startArrivals();
  let bench: BenchService | undefined;
  try {
    bench = await startBenchService();
    const url = `${receiver.url}/limited`;
    const settings = await destination(bench, receiver.url, {
      rate_limit: { requests: RATE, per: 'second' },
    });
    const due = Date.now() + LEAD_MS;
    await createDueEvents(bench, EVENTS, url, due);
    const db = bench.db;
    await arrived(receiver.url, '/limited', EVENTS, (EVENTS / RATE) * 4000 + 60_000);
    await waitFor(async () => ((await finished(db, url)).done >= EVENTS ? true : undefined), 'the outcomes');
    const arrivals = await readArrivals(receiver.url, '/limited');
    const { done, failed } = await finished(db, url);
    const last = Math.max(...arrivals.at);
    const first = Math.min(...arrivals.at);
    const maxPerSecond = maxInWindow(arrivals.at, 1000);
    // The call's start as the service recorded it: tells the limiter's count from the way to the receiver.
    const { rows } = await db.query<{ ms: number }>(
      `select extract(epoch from executed_at)::float8 * 1000 as ms from events where webhook_url = $1`,
      [url],
    );
    const started = rows.map((row) => row.ms);
    const perSecond = Math.round((arrivals.unique / ((last - due) / 1000)) * 10) / 10;
    const figures: Figure[] = [
      { figure: 'max arrivals in any 1 s', value: maxPerSecond, aim: '≤ 110', met: maxPerSecond <= 110 },
      {
        figure: 'throughput (due → last arrival)',
        value: `${perSecond}/s`,
        aim: '≥ 95/s',
        met: perSecond >= 95,
      },
      {
        figure: 'arrived / ended success',
        value: `${arrivals.unique} / ${done - failed} of ${EVENTS}`,
        aim: `all ${EVENTS}`,
        met: arrivals.unique === EVENTS && done - failed === EVENTS,
      },
    ];
    return {
      figures,
      details: {
        events: EVENTS,
        settings,
        maxPerSecond,
        maxStartedPerSecond: maxInWindow(started, 1000),
        arrivalsPerSecondAfterDue: perSecondCounts(arrivals.at, due, 12),
        startsPerSecondAfterDue: perSecondCounts(started, due, 12),
        perSecond,
        sustainedPerSecond: Math.round(((arrivals.at.length - 1) / ((last - first) / 1000)) * 10) / 10,
        firstArrivalAfterDueMs: Math.round(first - due),
        requests: arrivals.requests,
        unique: arrivals.unique,
        duplicates: arrivals.duplicates,
        failed,
      },
    };
  } finally {
    await bench?.stop();
    await receiver.stop();
  }
}

/** Counts in each of the first `seconds` whole seconds after `from`. */
function perSecondCounts(times: number[], from: number, seconds: number): number[] {
  const counts = Array.from({ length: seconds }, () => 0);
  for (const time of times) {
    const second = Math.floor((time - from) / 1000);
    if (second >= 0 && second < seconds) counts[second] = (counts[second] ?? 0) + 1;
  }
  return counts;
}
