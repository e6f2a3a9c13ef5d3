// What the scale benchmark reads off the database and the processes while and after it runs.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { percentile } from '../processes.ts';

/**
 * Lateness (executed_at − scheduled_at) of the events whose URL path holds `prefix`, due from `since`
 * (and before `until`).
 */
export async function lateness(db: pg.Client, prefix: string, since: Date, until = new Date(8.64e15)) {
  const { rows } = await db.query<{ ms: string; status: string }>(
    `select extract(epoch from executed_at - scheduled_at) * 1000 as ms, status from events
     where webhook_url like $1 and scheduled_at >= $2 and scheduled_at < $3 and retry_of is null
       and status in ('success', 'failed')`,
    [`%${prefix}%`, since, until],
  );
  const sorted = rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    events: sorted.length,
    failed: rows.filter((row) => row.status === 'failed').length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}

/**
 * The seconds of the minute when the events whose URL path holds `prefix` were latest (p99 of each
 * second, the worst `top`): whether the minutes' first seconds, when most crons fall due, make the p99.
 */
export async function latenessBySecondOfMinute(db: pg.Client, prefix: string, since: Date, top = 5) {
  const { rows } = await db.query<{ second: number; events: string; p50: number; p99: number }>(
    `select extract(second from scheduled_at)::int as second, count(*) as events,
            percentile_cont(0.5) within group (order by extract(epoch from executed_at - scheduled_at) * 1000) as p50,
            percentile_cont(0.99) within group (order by extract(epoch from executed_at - scheduled_at) * 1000) as p99
     from events
     where webhook_url like $1 and scheduled_at >= $2 and retry_of is null and status in ('success', 'failed')
     group by 1 order by p99 desc limit $3`,
    [`%${prefix}%`, since, top],
  );
  return rows.map((row) => ({
    second: row.second,
    events: Number(row.events),
    p50: Math.round(row.p50),
    p99: Math.round(row.p99),
  }));
}

/**
 * Lateness of the events whose URL path holds `prefix`, split by whose they are (`team`, the seed's
 * busiest, against all others) and by when in the minute they fell due (its first `markSeconds`,
 * when the minute crons fall due, against the rest): whose events the marks hold back.
 */
export async function latenessByTeamAndMark(
  db: pg.Client,
  prefix: string,
  since: Date,
  team: string,
  markSeconds = 5,
) {
  const { rows } = await db.query<{
    team: string;
    mark: boolean;
    events: string;
    p50: number;
    p99: number;
    max: number;
  }>(
    `with late as (
       select case when team_id = $3 then 'busiest' else 'others' end as team,
              extract(second from scheduled_at) < $4 as mark,
              extract(epoch from executed_at - scheduled_at) * 1000 as ms
       from events
       where webhook_url like $1 and scheduled_at >= $2 and retry_of is null and status in ('success', 'failed'))
     select team, mark, count(*) as events, percentile_cont(0.5) within group (order by ms) as p50,
            percentile_cont(0.99) within group (order by ms) as p99, max(ms) as max
     from late group by 1, 2 order by 1, 2 desc`,
    [`%${prefix}%`, since, team, markSeconds],
  );
  return rows.map((row) => ({
    team: row.team,
    seconds: row.mark ? `0-${markSeconds - 1}` : `${markSeconds}-59`,
    events: Number(row.events),
    p50: Math.round(row.p50),
    p99: Math.round(row.p99),
    max: Math.round(row.max),
  }));
}

/**
 * Each minute mark since `since` that held at least `least` occurrences (calls whose URL path holds
 * `prefix`, due at the minute's first instant): how many, when the last started, and the rate they
 * drained at (occurrences over that time): the rate the marks' lateness aims turn on (bench/README.md,
 * bench/scale, 2026-12-01 23:04).
 */
export async function markDrains(db: pg.Client, prefix: string, since: Date, least = 1000) {
  const { rows } = await db.query<{ mark: Date; occurrences: string; last_ms: number }>(
    `select scheduled_at as mark, count(*) as occurrences,
            max(extract(epoch from executed_at - scheduled_at) * 1000) as last_ms
     from events
     where webhook_url like $1 and scheduled_at >= $2 and scheduled_at = date_trunc('minute', scheduled_at)
       and retry_of is null and status in ('success', 'failed')
     group by 1 having count(*) >= $3 order by 1`,
    [`%${prefix}%`, since, least],
  );
  return rows.map((row) => ({
    mark: row.mark.toISOString().slice(11, 16),
    occurrences: Number(row.occurrences),
    lastStartMs: Math.round(row.last_ms),
    perSecond: Math.round(Number(row.occurrences) / (Math.max(row.last_ms, 1) / 1000)),
  }));
}

/** Live and dead tuples of the tables that churn. */
export async function tuples(db: pg.Client) {
  const { rows } = await db.query<{ table: string; live: string; dead: string }>(
    `select relname as table, n_live_tup as live, n_dead_tup as dead from pg_stat_user_tables
     where relname in ('events', 'event_queue', 'agenda_jobs', 'crons', 'event_totals', 'pending_event_counts',
                       'api_processes', 'scheduler_processes', 'idempotency_keys')
     order by relname`,
  );
  return Object.fromEntries(
    rows.map((row) => [row.table, { live: Number(row.live), dead: Number(row.dead) }]),
  );
}

/** Bytes per table and index, and per finished event. */
export async function disk(db: pg.Client) {
  const { rows } = await db.query<{ name: string; kind: string; table: string; bytes: string }>(
    `select c.relname as name, c.relkind as kind, coalesce(t.relname, c.relname) as table,
            pg_relation_size(c.oid) + case when c.relkind = 'r' then coalesce(pg_total_relation_size(c.reltoastrelid), 0) else 0 end as bytes
     from pg_class c
     left join pg_index i on i.indexrelid = c.oid
     left join pg_class t on t.oid = i.indrelid
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'i')
     order by bytes desc`,
  );
  const { rows: counted } = await db.query<{ finished: string; all: string }>(
    `select count(*) filter (where status in ('success', 'failed')) as finished, count(*) as all from events`,
  );
  const finished = Number(counted[0]?.finished ?? 0);
  const events = rows.filter((row) => row.table === 'events');
  const perEvent = (bytes: number) => (finished === 0 ? 0 : Math.round(bytes / Number(counted[0]?.all ?? 1)));
  return {
    finishedEvents: finished,
    allEvents: Number(counted[0]?.all ?? 0),
    eventsBytesPerEvent: perEvent(events.reduce((sum, row) => sum + Number(row.bytes), 0)),
    breakdownBytesPerEvent: Object.fromEntries(events.map((row) => [row.name, perEvent(Number(row.bytes))])),
    otherTablesMiB: Object.fromEntries(
      rows
        .filter((row) => row.table !== 'events' && Number(row.bytes) > 1024 * 1024)
        .map((row) => [row.name, Math.round(Number(row.bytes) / 1024 / 1024)]),
    ),
  };
}

/** A statement's text with its whitespace folded, for the report. */
const folded = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The statements that took the most time, from pg_stat_statements (reset at the phase's start), and
 * every statement whose calls took over `log_min_duration_statement` (5 ms) more often than one in a
 * hundred: `over5ms` counts a statement's calls in the cluster's log (see {@link slowStatements}), so
 * `p99Within5ms` is the aim "p99 ≤ 5 ms" per statement.
 */
export async function statements(db: pg.Client, slow: Map<string, number>, top = 25) {
  const { rows } = await db.query<{
    queryid: string;
    query: string;
    calls: string;
    mean: number;
    max: number;
    stddev: number;
    rows: string;
    total: number;
    plans: string;
    plan_total: number;
  }>(
    `select queryid::text, query, calls, mean_exec_time as mean, max_exec_time as max, stddev_exec_time as stddev, rows,
            total_exec_time as total, plans, total_plan_time as plan_total
     from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname = current_database() order by total_exec_time desc`,
  );
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const measured = rows.map((row) => {
    const calls = Number(row.calls);
    const over5ms = slow.get(row.queryid) ?? 0;
    return {
      query: folded(row.query).slice(0, 160),
      calls,
      meanMs: round(row.mean),
      stddevMs: round(row.stddev),
      maxMs: round(row.max),
      over5ms,
      p99Within5ms: over5ms <= calls / 100,
      rowsPerCall: Math.round((Number(row.rows) / Math.max(1, calls)) * 10) / 10,
      totalMs: Math.round(row.total),
      // Planning, outside the times above: how often the statement was planned, and how long in all.
      plans: Number(row.plans),
      planTotalMs: Math.round(row.plan_total),
    };
  });
  return measured.filter((row, rank) => rank < top || !row.p99Within5ms);
}

/**
 * Statements slower than `log_min_duration_statement` in the cluster's log since `offset`, counted by
 * query id (the log's line prefix carries it: cluster.ts), read line by line: the log can outgrow
 * what one string holds. Only executions are counted (parse and bind are not in
 * pg_stat_statements' times). Matching the logged text instead missed whole statements:
 * pg_stat_statements also replaces constants such as `null`, `epoch` and lists of them.
 */
export async function slowStatements(logFile: string, offset: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const slow = /\bq=(-?\d+) .*duration: [\d.]+ ms\s+(?:execute [^:]*|statement): /;
  const lines = createInterface({ input: createReadStream(logFile, { start: offset }), crlfDelay: Infinity });
  for await (const line of lines) {
    const queryId = slow.exec(line)?.[1];
    if (queryId && queryId !== '0') counts.set(queryId, (counts.get(queryId) ?? 0) + 1);
  }
  return counts;
}

/** Peak resident memory (MiB) and CPU seconds of a process, from /proc. */
export async function processUse(pid: number | undefined) {
  if (!pid) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    peakRssMiB: Math.round(kib('VmHWM') / 1024),
    rssMiB: Math.round(kib('VmRSS') / 1024),
    cpuS: ticks / 100,
  };
}

export async function machineLoad(): Promise<number[]> {
  const text = await readFile('/proc/loadavg', 'utf8');
  return text.split(' ').slice(0, 3).map(Number);
}
