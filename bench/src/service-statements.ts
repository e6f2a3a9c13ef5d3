// The scheduler's own timing of the two statements every delivery costs the database, read from the
// service's /metrics (`webhook_claim_duration_seconds{line}`, `webhook_outcome_write_duration_seconds`,
// `webhook_outcome_batch_size`): what a measured window added to them. Timed by the process, so
// they include any wait for its event loop.

const CLAIMS = 'webhook_claim_duration_seconds';
const WRITES = 'webhook_outcome_write_duration_seconds';
const BATCHES = 'webhook_outcome_batch_size';

/** A histogram's cumulative bucket counts by upper bound, its sum and its count. */
interface Histogram {
  buckets: Map<number, number>;
  sum: number;
  count: number;
}

/**
 * The three histograms at one moment, the claims by line, and the event loop's delay since the
 * scrape before (prom-client resets it at each: `nodejs_eventloop_lag_{p99,max}_seconds`).
 */
export interface StatementsSnapshot {
  histograms: Map<string, Histogram>;
  eventLoopDelay: { p99Ms: number; maxMs: number };
}

interface StatementTimes {
  count: number;
  meanMs: number;
  /** The least bucket bound that holds half / 99 % of them (null past the last bound). */
  p50AtMostMs: number | null;
  p99AtMostMs: number | null;
  /** Those over 5 ms (issue 25's aim for a statement's p99). */
  over5msShare: number;
}

function parseLine(
  line: string,
): { name: string; labels: Record<string, string>; value: number } | undefined {
  const match = /^([a-z_0-9]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
  if (!match) return undefined;
  const labels: Record<string, string> = {};
  for (const pair of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[pair[1]!] = pair[2]!;
  return { name: match[1]!, labels, value: Number(match[3]) };
}

/** The histograms in a /metrics text: the claims' keyed `claims:<line>`, the writes' and batches' by name. */
function parseStatements(text: string): StatementsSnapshot {
  const snapshot = new Map<string, Histogram>();
  const eventLoopDelay = { p99Ms: NaN, maxMs: NaN };
  const ms = (seconds: number) => Math.round(seconds * 10_000) / 10;
  for (const line of text.split('\n')) {
    const parsed = parseLine(line);
    if (!parsed) continue;
    if (parsed.name === 'nodejs_eventloop_lag_p99_seconds') eventLoopDelay.p99Ms = ms(parsed.value);
    if (parsed.name === 'nodejs_eventloop_lag_max_seconds') eventLoopDelay.maxMs = ms(parsed.value);
    const base = [CLAIMS, WRITES, BATCHES].find((name) => parsed.name.startsWith(`${name}_`));
    if (!base) continue;
    const key = base === CLAIMS ? `claims:${parsed.labels.line}` : base;
    const histogram = snapshot.get(key) ?? { buckets: new Map(), sum: 0, count: 0 };
    snapshot.set(key, histogram);
    const part = parsed.name.slice(base.length + 1);
    if (part === 'bucket') histogram.buckets.set(Number(parsed.labels.le), parsed.value);
    else if (part === 'sum') histogram.sum = parsed.value;
    else if (part === 'count') histogram.count = parsed.value;
  }
  return { histograms: snapshot, eventLoopDelay };
}

/** Reads the service's histograms now. */
export async function scrapeStatements(serviceUrl: string): Promise<StatementsSnapshot> {
  const response = await fetch(`${serviceUrl}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  return parseStatements(await response.text());
}

function added(before: Histogram | undefined, after: Histogram | undefined): Histogram {
  const buckets = new Map<number, number>();
  for (const [bound, count] of after?.buckets ?? [])
    buckets.set(bound, count - (before?.buckets.get(bound) ?? 0));
  return {
    buckets,
    sum: (after?.sum ?? 0) - (before?.sum ?? 0),
    count: (after?.count ?? 0) - (before?.count ?? 0),
  };
}

function atMost(histogram: Histogram, quantile: number): number | null {
  const bounds = [...histogram.buckets.keys()].filter(Number.isFinite).sort((a, b) => a - b);
  const bound = bounds.find((le) => (histogram.buckets.get(le) ?? 0) >= quantile * histogram.count);
  return bound === undefined ? null : bound * 1000;
}

function times(histogram: Histogram): StatementTimes {
  const within5ms = histogram.buckets.get(0.005) ?? 0;
  const share = (value: number) => Math.round(value * 1000) / 1000;
  return {
    count: histogram.count,
    meanMs: histogram.count ? Math.round((histogram.sum / histogram.count) * 10_000) / 10 : 0,
    p50AtMostMs: atMost(histogram, 0.5),
    p99AtMostMs: atMost(histogram, 0.99),
    over5msShare: histogram.count ? share(1 - within5ms / histogram.count) : 0,
  };
}

/**
 * What happened between two snapshots: each line's claims, the outcome writes, outcomes per write,
 * and the event loop's delay (its p99 and most) with no scrape between them.
 */
export function statementsBetween(before: StatementsSnapshot, after: StatementsSnapshot) {
  const [was, is] = [before.histograms, after.histograms];
  const claims = (line: string) => times(added(was.get(`claims:${line}`), is.get(`claims:${line}`)));
  const batches = added(was.get(BATCHES), is.get(BATCHES));
  return {
    claims: { due: claims('due'), backlog: claims('backlog') },
    outcomeWrites: times(added(was.get(WRITES), is.get(WRITES))),
    outcomesPerWrite: batches.count ? Math.round((batches.sum / batches.count) * 10) / 10 : 0,
    eventLoopDelay: after.eventLoopDelay,
  };
}
