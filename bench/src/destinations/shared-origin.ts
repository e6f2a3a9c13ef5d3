// Scenario 3: two teams on one origin with the default settings. Team A: 20,000 events due at once
// to /slow (answers after 1 s); team B: 3,000 events over 10 s to /fast on the same origin. B's
// lateness is its arrival at the receiver minus its scheduled time; A must lose nothing: its
// progress is read when B is done and over a while after (DEST_SHARED_DRAIN=1 waits for all of it).
// DEST_SHARED_CONTROL=1 sends B's events to another receiver process (another origin) instead: the
// same load, so what the shared origin itself costs B shows against it in one sitting.
// DEST_SHARED_SLOW_MS sets how long A's calls take (1000 by default; 0: A's calls are quick too).
import { waitFor } from '../processes.ts';
import { addTeam, evenly, finished, insertEvents } from '../seed.ts';
import { sampleActivity } from './activity.ts';
import { arrived, lateness, readArrivals, startArrivals } from './arrivals.ts';
import { type BenchService, startBenchService } from './bench-service.ts';
import type { Figure } from './report.ts';

const A_EVENTS = Number(process.env.DEST_SHARED_A_EVENTS ?? 20_000);
const B_EVENTS = 3000;
const B_SPREAD_MS = 10_000;
const SLOW_MS = Number(process.env.DEST_SHARED_SLOW_MS ?? 1000);
const OBSERVE_MS = Number(process.env.DEST_SHARED_OBSERVE_MS ?? 20_000);
// Inserting 20,000 events with their timers took over 5 s at a load average of 17.
const LEAD_MS = 10_000;
/** What the issue measured on an older main (same scenario). */
const BEFORE = { p50: '84 ms', p99: '12.1 s' };

export async function sharedOrigin(): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const receiver = await startArrivals(0, { '/slow': SLOW_MS });
  const control = process.env.DEST_SHARED_CONTROL === '1';
  let bench: BenchService | undefined;
  let other: Awaited<ReturnType<typeof startArrivals>> | undefined;
  try {
    if (control) other = await startArrivals();
    const bReceiver = other ?? receiver;
    bench = await startBenchService();
    const db = bench.db;
    const teamB = await addTeam(db, bench.teamId, 'B');
    const slowUrl = `${receiver.url}/slow`;
    const fastUrl = `${bReceiver.url}/fast`;
    const due = Date.now() + LEAD_MS;
    await insertEvents(db, bench.teamId, slowUrl, evenly(A_EVENTS, due, 0));
    await insertEvents(db, teamB, fastUrl, evenly(B_EVENTS, due + 500, B_SPREAD_MS));
    if (Date.now() > due) throw new Error('inserting the events took longer than their lead time');
    const sampler =
      process.env.DEST_SAMPLE_ACTIVITY === '1' ? sampleActivity(await bench.connect()) : undefined;
    await arrived(bReceiver.url, '/fast', B_EVENTS, 900_000);
    const bDoneAt = await waitFor(
      async () => ((await finished(db, fastUrl)).done >= B_EVENTS ? Date.now() : undefined),
      "team B's outcomes",
    );
    const b = await readArrivals(bReceiver.url, '/fast');
    const activity = await sampler?.stop();
    const bFailed = (await finished(db, fastUrl)).failed;
    const aAtBDone = await finished(db, slowUrl);
    const drain = process.env.DEST_SHARED_DRAIN === '1';
    const aDoneAt = drain
      ? await arrived(receiver.url, '/slow', A_EVENTS, 3_600_000).then(() => Date.now())
      : undefined;
    if (!drain) await new Promise((resolve) => setTimeout(resolve, OBSERVE_MS));
    const aLater = await finished(db, slowUrl);
    const aRate = Math.round(((aLater.done - aAtBDone.done) / ((Date.now() - bDoneAt) / 1000)) * 10) / 10;
    const aRemaining = A_EVENTS - aLater.done;
    const a = await readArrivals(receiver.url, '/slow');
    const bLate = lateness(b);
    const figures: Figure[] = [
      {
        figure: 'team B lateness p50',
        value: `${bLate.p50} ms (before: ${BEFORE.p50})`,
        aim: '≤ 5 ms',
        met: bLate.p50 <= 5,
      },
      {
        figure: 'team B lateness p99',
        value: `${bLate.p99} ms (before: ${BEFORE.p99})`,
        aim: '≤ 50 ms',
        met: bLate.p99 <= 50,
      },
      {
        figure: 'team A done / failed / remaining',
        value: `${aLater.done} / ${aLater.failed} / ${aRemaining} at ${aRate}/s`,
        aim: 'none lost',
        met: aLater.failed === 0 && a.duplicates === 0,
      },
    ];
    return {
      figures,
      details: {
        teamBOrigin: control ? 'another origin (control)' : 'the same origin as team A',
        activityWhileBRan: activity,
        teamB: {
          events: B_EVENTS,
          lateness: bLate,
          failed: bFailed,
          received: counts(b),
          doneAfterDueS: (bDoneAt - due) / 1000,
        },
        teamA: {
          events: A_EVENTS,
          doneWhenBWasDone: aAtBDone.done,
          done: aLater.done,
          failed: aLater.failed,
          perSecondAfterB: aRate,
          remaining: aRemaining,
          etaSeconds: aRate > 0 ? Math.round(aRemaining / aRate) : null,
          drainedAfterDueS: aDoneAt === undefined ? null : (aDoneAt - due) / 1000,
          received: counts(a),
        },
      },
    };
  } finally {
    await bench?.stop();
    await receiver.stop();
    await other?.stop();
  }
}

function counts(arrivals: { requests: number; unique: number; duplicates: number }) {
  return { requests: arrivals.requests, unique: arrivals.unique, duplicates: arrivals.duplicates };
}
