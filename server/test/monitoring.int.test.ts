import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT } from './guide-samples.js';
import { type TestDatabase, createTestDatabase, databaseUrl } from './harness.js';
import { type ServiceProcess, listeningUrl, startServiceProcess } from './service-process.js';

// docs/monitoring holds what operators import: Prometheus alert rules and a Grafana dashboard.
// promtool checks the rules and runs their unit tests; every metric they and the dashboard query
// must be one a running service exports.

const run = promisify(execFile);
const MONITORING = path.join(REPO_ROOT, 'docs', 'monitoring');
/** Debian's `prometheus` package has it (`apt-get install -y prometheus`; .ci/run installs it). */
const PROMTOOL = process.env.PROMTOOL_PATH ?? 'promtool';
const hasPromtool = await run(PROMTOOL, ['--version']).then(
  () => true,
  () => false,
);
if (!hasPromtool) {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! SKIPPING promtool's checks of docs/monitoring/alerts.yaml: no ${PROMTOOL}.\n` +
      `!! Install it with \`apt-get install -y prometheus\` (.ci/run does), or set PROMTOOL_PATH.\n${'!'.repeat(78)}\n\n`,
  );
}

/** Series Prometheus makes itself, and metrics the alert rules wait for from a later release. */
const NOT_FROM_THE_SERVICE = new Set([
  'up',
  // The destinations' circuit breaker (docs/reference/behaviour.md#circuit-breaker) will export it; its rule matches nothing until then.
  'webhook_destination_circuit_open',
]);

interface RuleFile {
  groups: { rules: { alert: string; expr: string }[] }[];
}
interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}

const rules = (
  parseYaml(readFileSync(path.join(MONITORING, 'alerts.yaml'), 'utf8')) as RuleFile
).groups.flatMap((group) => group.rules);
const dashboard = JSON.parse(
  readFileSync(path.join(MONITORING, 'grafana-dashboard.json'), 'utf8'),
) as Dashboard;

// Grafana's variables, as a query sent to Prometheus would have them replaced.
const GRAFANA_VARIABLES: [RegExp, string][] = [
  [/\$__rate_interval/g, '1m'],
  [/\$__range/g, '1h'],
  [/\$job\b/g, 'webhook-scheduler'],
];

/** The metric names a PromQL expression selects, parsed with Prometheus's own grammar. */
function selectedMetrics(expr: string): { metrics: string[]; errors: number } {
  const metrics: string[] = [];
  let errors = 0;
  const tree = parser.parse(expr);
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) errors += 1;
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        metrics.push(expr.slice(node.from, node.to));
      }
    },
  });
  return { metrics, errors };
}

const dashboardQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({
    where: `dashboard panel "${panel.title}"`,
    expr: GRAFANA_VARIABLES.reduce((text, [variable, value]) => text.replace(variable, value), target.expr),
  })),
);
const queries = [
  ...rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
  ...dashboardQueries,
];

/** The series names a /metrics page exposes (a histogram's as its _bucket, _sum and _count). */
function exposedSeries(page: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of page.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!name) continue;
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    else names.add(name);
  }
  return names;
}

let db: TestDatabase;
let service: ServiceProcess;
let exported: Set<string>;

beforeAll(async () => {
  db = await createTestDatabase();
  // Every role's metrics: `all` runs the API and the scheduler (and so retention).
  service = await startServiceProcess('all', databaseUrl(db.connection));
  exported = exposedSeries(await (await fetch(`${listeningUrl(service)}/metrics`)).text());
});
afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

describe('docs/monitoring', () => {
  it.skipIf(!hasPromtool)('holds alert rules that promtool check rules accepts', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', 'alerts.yaml'], { cwd: MONITORING });
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it.skipIf(!hasPromtool)('holds alert rules that fire as their unit tests expect', async () => {
    const { stdout } = await run(PROMTOOL, ['test', 'rules', 'alerts.test.yaml'], { cwd: MONITORING });
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('alerts on lateness, failures, backlog, circuits, retention and processes', () => {
    const used = new Set(
      queries
        .filter((query) => query.where.startsWith('alert'))
        .flatMap((q) => selectedMetrics(q.expr).metrics),
    );
    for (const metric of [
      'webhook_delivery_lateness_seconds_bucket',
      'webhook_deliveries_total',
      'webhook_events_due_backlog',
      'webhook_destination_circuit_open',
      'events_retention_completed_timestamp_seconds',
      'up',
    ]) {
      expect(used, metric).toContain(metric);
    }
  });

  it('has dashboard queries that parse as PromQL', () => {
    expect(dashboardQueries.length).toBeGreaterThan(10);
    const broken = dashboardQueries.filter((query) => selectedMetrics(query.expr).errors > 0);
    expect(broken).toEqual([]);
  });

  it('queries only metrics that the service exports', () => {
    expect(exported).toContain('webhook_deliveries_total');
    const unknown = queries.flatMap(({ where, expr }) =>
      selectedMetrics(expr)
        .metrics.filter((metric) => !exported.has(metric) && !NOT_FROM_THE_SERVICE.has(metric))
        .map((metric) => `${where}: ${metric}`),
    );
    expect(unknown).toEqual([]);
  });
});
