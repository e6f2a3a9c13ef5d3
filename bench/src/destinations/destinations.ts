// bench/destinations: the limits a team sets on a destination, the circuit breaker, two teams on one
// origin and the default shares, measured from outside (real service processes, loopback receivers).
// Usage: npm run destinations -w bench   (DEST_SCENARIO=rate,outage,shared,shares runs some of them)
import { execSync } from 'node:child_process';
import { saveReport } from '../processes.ts';
import { load } from './arrivals.ts';
import { outage } from './outage.ts';
import { type ScenarioResult, measured, printTable } from './report.ts';
import { rateLimited } from './rate.ts';
import { sharedOrigin } from './shared-origin.ts';
import { defaultShares } from './shares.ts';

const SCENARIOS = { rate: rateLimited, outage, shared: sharedOrigin, shares: defaultShares } as const;
type Name = keyof typeof SCENARIOS;

const wanted = (process.env.DEST_SCENARIO ?? Object.keys(SCENARIOS).join(','))
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
for (const name of wanted)
  if (!(name in SCENARIOS)) throw new Error(`no scenario "${name}" (${Object.keys(SCENARIOS).join(', ')})`);

const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
const results: ScenarioResult[] = [];
for (const name of wanted as Name[]) {
  console.log(`${new Date().toISOString()} ${name}: starting (load ${load()})`);
  results.push(await measured(name, SCENARIOS[name]));
}
const date = new Date().toISOString();
const suffix = process.env.DEST_RESULT ? `-${process.env.DEST_RESULT}` : '';
const report = { date, commit, scenarios: results };
await saveReport(`destinations${suffix}`, report);
printTable(results);
