// Issue 25's aims read off one bench/scale report: each figure beside its aim, met or missed, so that a
// run (or a stored result, `npm run scale:aims -w bench -- results/<file>.json`) says where it stands.
import type { Figure } from '../destinations/report.ts';

interface Lateness {
  events: number;
  failed: number;
  p50: number;
  p99: number;
}

interface Tuples {
  live: number;
  dead: number;
}

/** The fields of a bench/scale report the aims read; older reports lack some of them. */
export interface ScaleReport {
  scenario: string;
  machine: { cores: number; loadAvgBefore?: number[]; loadAvgAfter: number[] };
  migrateOnCloneMs: number;
  size?: { crons: number };
  punctual: Lateness;
  /** Since 2026-12-02: the punctual events by team (the busiest, the others) and second of the minute. */
  punctualByTeam?: { team: string; seconds: string; events: number; p50: number; p99: number; max: number }[];
  cronOccurrences: Lateness;
  /** Since 2026-12-02: each minute mark's occurrences, when the last started, and their rate. */
  markDrains?: { mark: string; occurrences: number; lastStartMs: number; perSecond: number }[];
  receivers: { before: { duplicates: number }; after: { duplicates: number } };
  api: Record<string, { requests: number; p99: number }>;
  deadTuples: Record<string, Tuples>[];
  disk: { eventsBytesPerEvent: number };
  statements: { query: string; calls: number; over5ms: number }[];
  services: { role: string; startToListeningMs: number; peakRssMiB?: number }[];
  slow?: { throughput: { median: number; min: number; mean: number } };
  catchUp?: {
    endedWrongly: number;
    backfilledOccurrences: number;
    restartToListeningMs?: number | undefined;
    drainedInMs: number;
    punctualDueWhileDraining: Lateness;
  };
}

/** Tables with fewer live rows than this are a few pages that reads prune: their ratio is shown apart. */
const SMALL_TABLE_ROWS = 10_000;
/** A statement's p99 needs a hundred calls to mean anything. */
const STATEMENT_MIN_CALLS = 100;

const ms = (n: number) => `${n.toLocaleString('en-US')} ms`;
const figure = (name: string, value: string | number, aim = '', met: boolean | null = null): Figure => ({
  figure: name,
  value,
  aim,
  met: aim === '' ? null : met,
});

function latenessFigure(name: string, lateness: Lateness, p50Aim: number | undefined, p99Aim: number) {
  const aim = p50Aim === undefined ? `p99 ≤ ${p99Aim} ms` : `p50 ≤ ${p50Aim}, p99 ≤ ${p99Aim} ms`;
  const met = lateness.p99 <= p99Aim && (p50Aim === undefined || lateness.p50 <= p50Aim);
  return figure(
    `${name} p50 / p99 (${lateness.events} events)`,
    `${lateness.p50} / ${ms(lateness.p99)}`,
    aim,
    met,
  );
}

/** Each table's worst share of dead rows over the run's samples. */
function worstDeadShares(samples: Record<string, Tuples>[]) {
  const worst = new Map<string, Tuples & { share: number }>();
  for (const sample of samples)
    for (const [table, { live, dead }] of Object.entries(sample)) {
      const share = live === 0 ? 0 : dead / live;
      if (share >= (worst.get(table)?.share ?? 0)) worst.set(table, { live, dead, share });
    }
  return [...worst].map(([table, tuples]) => ({ table, ...tuples }));
}

function deadRowFigures(samples: Record<string, Tuples>[]): Figure[] {
  const shares = worstDeadShares(samples);
  const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;
  const row = (name: string, tables: typeof shares, detail: boolean) =>
    figure(
      name,
      tables
        .map((t) => `${t.table} ${percent(t.share)}${detail ? ` (${t.dead} of ${t.live})` : ''}`)
        .join(', '),
      '< 10 %',
      tables.every((t) => t.share < 0.1),
    );
  const large = shares.filter((t) => t.live >= SMALL_TABLE_ROWS);
  const small = shares.filter((t) => t.live < SMALL_TABLE_ROWS && t.dead > 0);
  return [
    row('dead rows, worst sample', large, false),
    ...(small.length > 0 ? [row(`dead rows, tables under ${SMALL_TABLE_ROWS} rows`, small, true)] : []),
  ];
}

function apiFigure(api: ScaleReport['api']): Figure[] {
  const routes = Object.entries(api).filter(([, route]) => route.requests > 0);
  if (routes.length === 0) return [];
  const [worstRoute, worst] = routes.reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
  const over = routes.filter(([, route]) => route.p99 > 50).length;
  return [
    figure(
      'API p99: the worst route; routes over the aim',
      `${ms(worst.p99)} (${worstRoute}); ${over} of ${routes.length}`,
      '≤ 50 ms per route',
      over === 0,
    ),
  ];
}

/** The statements the aim names, known by how their text begins; the rest are background and batch work. */
const NAMED_STATEMENTS: [string, RegExp][] = [
  [
    'outcome',
    /^with input as \( select \* from jsonb_to_recordset\(\$1::jsonb\) as i\( id uuid, lease_token/,
  ],
  ['claim', /^with recursive team_room/],
  ['list page or GET by id', /^select events\.id, events\.team_id/],
  ['count', /^select \(select coalesce\(sum\(n\), 0\) from event_counts/],
  ['create', /^with quota as/],
];
const nameOf = (query: string) => NAMED_STATEMENTS.find(([, start]) => start.test(query))?.[0];

function statementFigures(statements: ScaleReport['statements']): Figure[] {
  const counted = statements.filter((s) => s.calls >= STATEMENT_MIN_CALLS);
  const share = (s: { calls: number; over5ms: number }) => s.over5ms / s.calls;
  const missing = (named: boolean) =>
    counted
      .filter((s) => share(s) > 0.01 && (nameOf(s.query) !== undefined) === named)
      .sort((a, b) => share(b) - share(a));
  const listed = (rows: typeof counted, label: (s: (typeof counted)[number]) => string) =>
    rows.length === 0
      ? 0
      : `${rows.length}: ${rows
          .slice(0, 4)
          .map((s) => `${label(s)} ${Math.round(share(s) * 100)} %`)
          .join(' · ')}`;
  const named = missing(true);
  return [
    figure(
      'claims, outcomes, list pages, counts, creates: statements over 5 ms in > 1 % of calls',
      listed(named, (s) => nameOf(s.query) ?? ''),
      'p99 ≤ 5 ms each',
      named.length === 0,
    ),
    figure(
      'other statements (background jobs, batches) over 5 ms in > 1 % of calls',
      listed(missing(false), (s) => `${s.query.slice(0, 32)}…`),
    ),
  ];
}

function scenarioFigures(report: ScaleReport): Figure[] {
  const { slow, catchUp } = report;
  if (slow)
    return [
      figure(
        'slow deliveries/s over 60 s: mean, median, slowest second',
        `${slow.throughput.mean}, ${slow.throughput.median}, ${slow.throughput.min}`,
        'mean ≥ 1,600',
        slow.throughput.mean >= 1600,
      ),
      latenessFigure("another team's punctual events", report.punctual, undefined, 50),
      ...report.services.map((s) =>
        figure(
          `peak RSS (${s.role})`,
          `${s.peakRssMiB ?? '?'} MiB`,
          '≤ 1,024 MiB',
          (s.peakRssMiB ?? 0) <= 1024,
        ),
      ),
    ];
  if (catchUp)
    return [
      figure(
        'ended against the tolerance wrongly; back-filled occurrences',
        `${catchUp.endedWrongly}; ${catchUp.backfilledOccurrences}`,
        '0; 0',
        catchUp.endedWrongly === 0 && catchUp.backfilledOccurrences === 0,
      ),
      figure('the backlog drained in', ms(catchUp.drainedInMs)),
      latenessFigure('punctual events due while it drained', catchUp.punctualDueWhileDraining, undefined, 50),
    ];
  return [
    latenessFigure('punctual lateness', report.punctual, 5, 25),
    ...(report.punctualByTeam ?? []).map((part) =>
      figure(
        `  ${part.team === 'busiest' ? 'team 0 (half of all)' : 'the other teams'}, seconds ${part.seconds}: p50 / p99 / max (${part.events} events)`,
        `${part.p50} / ${part.p99} / ${ms(part.max)}`,
      ),
    ),
  ];
}

/**
 * The rate each mark drained at, against what the lateness aims need of it with the seed's crons
 * (bench/README.md, bench/scale, 2026-12-01 23:04). Five minutes hold four marks of a quarter of the
 * crons and one of half; team 0's punctual events (half of them) wait behind every mark, the
 * others' behind the half; and a p99 lets 1 % of five minutes' punctual events be late, whatever
 * their rate: R > crons / 3 a second. Not an aim of its own: the reason for those.
 */
function markDrainFigures(report: ScaleReport): Figure[] {
  const drains = report.markDrains ?? [];
  if (drains.length === 0) return [];
  const rates = drains.map((d) => d.perSecond).sort((a, b) => a - b);
  const need = report.size
    ? ` (the lateness aims need > ${Math.round(report.size.crons / 3).toLocaleString('en-US')}/s)`
    : '';
  return [
    figure(
      `  marks' drain: occurrences / last start, slowest to fastest (${drains.length} marks)`,
      `${rates[0]!.toLocaleString('en-US')}–${rates.at(-1)!.toLocaleString('en-US')}/s${need}`,
    ),
  ];
}

/** The report's figures against issue 25's aims, in the order the issue states them. */
export function scaleAims(report: ScaleReport): Figure[] {
  const failed = report.punctual.failed + report.cronOccurrences.failed;
  const duplicates = report.receivers.after.duplicates - report.receivers.before.duplicates;
  const slowestStart = Math.max(
    ...report.services.map((s) => s.startToListeningMs),
    report.catchUp?.restartToListeningMs ?? 0,
  );
  return [
    ...scenarioFigures(report),
    latenessFigure('cron occurrences lateness', report.cronOccurrences, 5, 25),
    ...markDrainFigures(report),
    figure(
      'calls twice; events failed',
      `${duplicates}; ${failed}`,
      '0; 0',
      duplicates === 0 && failed === 0,
    ),
    ...apiFigure(report.api),
    ...statementFigures(report.statements),
    figure(
      'disk per event with its indexes',
      `${report.disk.eventsBytesPerEvent.toLocaleString('en-US')} B`,
      '≤ 2,500 B',
      report.disk.eventsBytesPerEvent <= 2500,
    ),
    ...deadRowFigures(report.deadTuples),
    figure('start to listening, the slowest process', ms(slowestStart), '≤ 5,000 ms', slowestStart <= 5000),
    // A whole `migrate` within 1 s blocked no write for longer; a longer one needs its log read.
    figure(
      '`migrate` on the clone, all of it',
      ms(report.migrateOnCloneMs),
      'no write blocked > 1 s',
      report.migrateOnCloneMs <= 1000 ? true : null,
    ),
  ];
}
