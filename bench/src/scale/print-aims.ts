// Prints issue 25's aims of stored bench/scale reports: npm run scale:aims -w bench -- results/<file>.json …
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { printTable } from '../destinations/report.ts';
import { type ScaleReport, scaleAims } from './aims.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run scale:aims -w bench -- results/scale-<scenario>-<size>-<date>.json …');
  process.exit(2);
}
const reports = await Promise.all(
  files.map(async (file) => ({ file, report: JSON.parse(await readFile(file, 'utf8')) as ScaleReport })),
);
printTable(
  reports.map(({ file, report }) => ({
    scenario: path.basename(file, '.json'),
    load: {
      start: report.machine.loadAvgBefore?.join(' ') ?? '?',
      end: report.machine.loadAvgAfter.join(' '),
    },
    figures: scaleAims(report),
    details: {},
  })),
);
