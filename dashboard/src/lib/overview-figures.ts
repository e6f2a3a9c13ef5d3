import type { DeliveriesOverview, UpcomingOverview } from '@webhook-scheduler/contract';

/** A series of a chart: its name as the legend and the table say it, and its values. */
export interface Series {
  label: string;
  /** How the series is drawn, so it reads without colour: `solid`, `stripes`, `grid`, `dots`, `dashed`. */
  pattern: 'solid' | 'stripes' | 'grid' | 'dots' | 'line' | 'dashed';
  color: string;
  values: (number | null)[];
}

/** What a chart draws: times (epoch seconds) and series, stacked bars or lines. */
export interface ChartData {
  kind: 'stacked-bars' | 'lines';
  times: number[];
  series: Series[];
  /** How one value is written in the readout and the table (`12`, `3.4 ms`). */
  unit: 'calls' | 'ms';
}

export const OUTCOME_COLORS = { succeeded: '#137a4b', retrying: '#b26b00', failed: '#c8283a' } as const;
const seconds = (iso: string) => Date.parse(iso) / 1000;

/** Calls per bin by outcome, stacked succeeded → retrying → failed. */
export function outcomeChart(overview: DeliveriesOverview): ChartData {
  const { bins } = overview;
  return {
    kind: 'stacked-bars',
    unit: 'calls',
    times: bins.map((bin) => seconds(bin.at)),
    series: [
      {
        label: 'Succeeded',
        pattern: 'solid',
        color: OUTCOME_COLORS.succeeded,
        values: bins.map((b) => b.succeeded),
      },
      {
        label: 'Failed, retrying',
        pattern: 'stripes',
        color: OUTCOME_COLORS.retrying,
        values: bins.map((b) => b.retrying),
      },
      { label: 'Failed', pattern: 'grid', color: OUTCOME_COLORS.failed, values: bins.map((b) => b.failed) },
    ],
  };
}

/** Lateness p50 and p99 per bin; a bin without a call has no point. */
export function latenessChart(overview: DeliveriesOverview): ChartData {
  const { bins } = overview;
  return {
    kind: 'lines',
    unit: 'ms',
    times: bins.map((bin) => seconds(bin.at)),
    series: [
      { label: 'p50', pattern: 'line', color: '#4f46e5', values: bins.map((b) => b.lateness_p50_ms) },
      { label: 'p99', pattern: 'dashed', color: '#9a3412', values: bins.map((b) => b.lateness_p99_ms) },
    ],
  };
}

/** The next hour per minute: pending events, then cron runs not created yet, stacked. */
export function upcomingChart(upcoming: UpcomingOverview): ChartData {
  const { minutes } = upcoming;
  return {
    kind: 'stacked-bars',
    unit: 'calls',
    times: minutes.map((minute) => seconds(minute.at)),
    series: [
      { label: 'Pending events', pattern: 'solid', color: '#4f46e5', values: minutes.map((m) => m.events) },
      {
        label: 'Cron runs to come',
        pattern: 'dots',
        color: '#0e7490',
        values: minutes.map((m) => m.cron_runs),
      },
    ],
  };
}

/**
 * The tops of stacked bars: each series' values added to those below it, so that drawing the
 * tallest first and the lowest last shows the stack.
 */
export function stackedTops(series: readonly Series[]): number[][] {
  const tops: number[][] = [];
  series.forEach((current, index) => {
    const below = tops[index - 1];
    tops.push(current.values.map((value, i) => (value ?? 0) + (below?.[i] ?? 0)));
  });
  return tops;
}

const integer = new Intl.NumberFormat('en-GB');

/** `1,234`. */
export const formatCount = (n: number) => integer.format(n);

/** `under 1 ms`, `3.4 ms`, `2.1 s`, `—` for none. */
export function formatLateness(ms: number | null): string {
  if (ms === null) return '—';
  if (ms === 0) return 'under 1 ms';
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** `2.5 %`, `12 %`: `part` of `whole`, or undefined when `whole` is 0. */
export function formatShare(part: number, whole: number): string | undefined {
  if (whole === 0) return undefined;
  const share = (part / whole) * 100;
  return `${share < 10 ? share.toFixed(1) : Math.round(share)} %`;
}

/** `2.5 %` of calls that failed (retrying or for good), or undefined without a call. */
export function failureShare(totals: DeliveriesOverview['totals']): string | undefined {
  return formatShare(totals.retrying + totals.failed, totals.succeeded + totals.retrying + totals.failed);
}

/** A value as the readout and the table write it. */
export function formatValue(value: number | null, unit: ChartData['unit']): string {
  if (unit === 'ms') return formatLateness(value);
  return value === null ? '—' : formatCount(value);
}
