import { useEffect, useId, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { type ChartData, formatValue, stackedTops } from '../lib/overview-figures.js';
import 'uplot/dist/uPlot.min.css';
import { patternFill } from './chart-patterns.js';

const HEIGHT = 180;

function timeLabel(seconds: number, withDate: boolean): string {
  return new Intl.DateTimeFormat('en-GB', {
    ...(withDate ? { weekday: 'short', day: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(seconds * 1000));
}

/** The swatch of a series in the legend: the same pattern as its bars or line. */
function Swatch({ series }: { series: ChartData['series'][number] }) {
  return (
    <span className={`swatch swatch-${series.pattern}`} style={{ color: series.color }} aria-hidden="true" />
  );
}

function options(
  data: ChartData,
  width: number,
  bars: uPlot.Series.PathBuilder | undefined,
  onHover: (index: number | null) => void,
): uPlot.Options {
  const stacked = data.kind === 'stacked-bars';
  // Tallest first: the stack's top is drawn, then each lower series over it.
  const order = stacked ? [...data.series.keys()].reverse() : [...data.series.keys()];
  const withDate = (data.times.at(-1) ?? 0) - (data.times[0] ?? 0) > 86_400;
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { points: { show: !stacked }, drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(stacked ? 4 : 2, max * 1.1)] } },
    axes: [
      { values: (_u, splits) => splits.map((s) => timeLabel(s, withDate)), size: 32, stroke: '#5f6b82' },
      {
        size: data.unit === 'ms' ? 64 : 48,
        stroke: '#5f6b82',
        grid: { stroke: '#e3e6ee' },
        values: (_u, splits) => splits.map((s) => (data.unit === 'ms' ? `${s} ms` : String(s))),
      },
    ],
    series: [
      {},
      ...order.map((index) => {
        const series = data.series[index];
        if (!series) return {};
        return stacked
          ? {
              label: series.label,
              stroke: series.color,
              width: 1,
              fill: (u: uPlot) => patternFill(u.ctx, series),
              ...(bars ? { paths: bars } : {}),
              points: { show: false },
            }
          : {
              label: series.label,
              stroke: series.color,
              width: 2,
              ...(series.pattern === 'dashed' ? { dash: [6, 4] } : {}),
              spanGaps: false,
              points: { show: true, size: 4 },
            };
      }),
    ],
    hooks: { setCursor: [(u) => onHover(u.cursor.idx ?? null)] },
  };
}

/** The columns uPlot draws: times, then the series in drawing order (stacked tops for bars). */
function plotted(data: ChartData): uPlot.AlignedData {
  if (data.kind !== 'stacked-bars') return [data.times, ...data.series.map((s) => s.values)];
  const tops = stackedTops(data.series);
  return [data.times, ...[...tops].reverse()];
}

/**
 * A time chart drawn by uPlot (loaded with the first chart, so other pages do not carry it), with
 * a legend of patterns and labels, a readout of the bin under the pointer, and the same figures
 * as a table for screen readers and for reading exact values.
 */
export function TimeChart({ data, title, testId }: { data: ChartData; title: string; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const tableId = useId();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: HEIGHT }));
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const bars = UPlot.paths.bars?.({ size: [0.8, 24] });
      plot = new UPlot(options(data, element.clientWidth, bars, setHover), plotted(data), element);
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      plot?.destroy();
    };
  }, [data]);

  const index = hover ?? data.times.length - 1;
  const at = data.times[index];
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption className="chart-legend">
        {data.series.map((series) => (
          <span key={series.label} className="legend-item">
            <Swatch series={series} />
            {series.label}
          </span>
        ))}
      </figcaption>
      <div
        ref={box}
        className="chart-plot"
        role="img"
        aria-label={`${title}: chart, the figures are in the table below`}
      />
      <p className="chart-readout small" aria-live="off" data-testid={`${testId}-readout`}>
        {at === undefined ? null : (
          <>
            <strong>{timeLabel(at, data.times.length > 90)}</strong>
            {data.series.map((series) => (
              <span key={series.label}>
                {' · '}
                {series.label} {formatValue(series.values[index] ?? null, data.unit)}
              </span>
            ))}
          </>
        )}
      </p>
      <details className="chart-table">
        <summary aria-controls={tableId}>Show the figures as a table</summary>
        {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
        <div className="chart-table-scroll" tabIndex={0} role="region" aria-label={`${title}: figures`}>
          <table className="table" id={tableId}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {data.series.map((series) => (
                  <th key={series.label} scope="col">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.times.map((time, row) => (
                <tr key={time}>
                  <td>{timeLabel(time, data.times.length > 90)}</td>
                  {data.series.map((series) => (
                    <td key={series.label}>{formatValue(series.values[row] ?? null, data.unit)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
