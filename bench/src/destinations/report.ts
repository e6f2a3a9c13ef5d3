// What every scenario hands back, and the table the main prints.
import { load } from './arrivals.ts';

/** One measured figure next to its aim; `met` is null where there is no aim to meet. */
export interface Figure {
  figure: string;
  value: string | number;
  aim: string;
  met: boolean | null;
}

export interface ScenarioResult {
  scenario: string;
  /** Load averages (1, 5, 15 min) when the scenario started and ended. */
  load: { start: string; end: string };
  figures: Figure[];
  /** Everything else the scenario measured, for the result file. */
  details: Record<string, unknown>;
}

/** Runs a scenario with the machine's load read before and after it. */
export async function measured(
  scenario: string,
  run: () => Promise<{ figures: Figure[]; details: Record<string, unknown> }>,
): Promise<ScenarioResult> {
  const start = load();
  const { figures, details } = await run();
  return { scenario, load: { start, end: load() }, figures, details };
}

export function printTable(results: ScenarioResult[]): void {
  const rows = results.flatMap((result) =>
    result.figures.map((figure) => [
      result.scenario,
      figure.figure,
      String(figure.value),
      figure.aim,
      figure.met === null ? '' : figure.met ? 'met' : 'MISSED',
    ]),
  );
  const header = ['scenario', 'figure', 'measured', 'aim', ''];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
  for (const result of results)
    console.log(`${result.scenario}: load ${result.load.start} → ${result.load.end}`);
}
