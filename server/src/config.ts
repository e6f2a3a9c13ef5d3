import path from 'node:path';
import { parse } from 'pg-connection-string';
import { allowedHostsProblem } from '@webhook-scheduler/scheduler';
import type { SignUpMode, TeamLimits } from '@webhook-scheduler/contract';
import { z } from 'zod';
import { otlpEndpointProblem, otlpTracesUrl, parseOtlpHeaders } from './tracing/otlp.rules.js';
import type { TracingConfig } from './tracing/tracing-config.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as `90s`, `30m`, `1h`, `30d` or `500ms` (a bare number is ms). */
export function parseDurationMs(value: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  const unit = (match[2] ?? 'ms') as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

/** A duration such as `90s`, `30m`, `1h`, `30d` or `500ms`; a bare number is milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseDurationMs(value);
      if (ms === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'must be a duration such as 90s, 30m, 1h or 30d',
        });
        return z.NEVER;
      }
      return ms;
    });

// Not z.string().url(): WHATWG URLs refuse an empty host, but libpq's unix-socket form
// `postgresql://user@/db?host=/run/postgresql` has one. pg-connection-string, which connects, decides.
const databaseUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL')
  .refine(isConnectionString, 'is not a valid connection URL')
  .optional();

/** Express's `trust proxy`: true/false, a hop count, or a comma-separated list of addresses/subnets. */
const trustProxy = z
  .string()
  .default('false')
  .transform((value): boolean | number | string => {
    const trimmed = value.trim();
    if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
    return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
  });

/** A comma-separated list, trimmed and without empty entries; `problem` names what is wrong with it. */
function commaList(problem: (entries: string[]) => string | undefined) {
  return z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .superRefine((entries, ctx) => {
      const found = problem(entries);
      if (found) ctx.addIssue({ code: z.ZodIssueCode.custom, message: found });
    });
}

function isConnectionString(value: string): boolean {
  try {
    parse(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long finished events are kept: `0` keeps them forever; anything else needs its unit, because a
 * bare `30` read as milliseconds would delete every finished event at once.
 */
const retention = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine(
      (value) => value.trim() === '0' || /[a-z]\s*$/.test(value.trim()),
      'must be 0 or a duration with its unit, such as 30d or 12h',
    )
    .pipe(duration(fallback));

/** A duration above zero: a timeout of 0 would mean none at all to Node's HTTP server. */
const timeout = (fallback: string) => duration(fallback).refine((ms) => ms > 0, 'must be above zero');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: positiveInt(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: positiveInt(35_000),
  WEBHOOK_TIMEOUT_MS: positiveInt(30_000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
  WEBHOOK_ALLOWED_HOSTS: commaList(allowedHostsProblem),
  MISSED_EVENT_TOLERANCE: duration('1h'),
  DELIVERY_CONCURRENCY: positiveInt(1000),
  // Unset: a quarter of DELIVERY_CONCURRENCY.
  TEAM_MAX_IN_FLIGHT: z.coerce.number().int().min(1).optional(),
  DESTINATION_MAX_IN_FLIGHT: positiveInt(50),
  CIRCUIT_FAILURES: positiveInt(10),
  SLOT_SHARDS: z.coerce.number().int().min(1).max(16).default(2),
  CRON_HORIZON: duration('1m'),
  // A call must start within half the grace of its claim (the rest is for recording it).
  LEASE_GRACE: duration('30s').refine((ms) => ms >= 1000, 'must be at least 1s'),
  TRUST_PROXY: trustProxy,
  HTTP_HEADERS_TIMEOUT: timeout('10s'),
  HTTP_REQUEST_TIMEOUT: timeout('30s'),
  HTTP_KEEP_ALIVE_TIMEOUT: timeout('65s'),
  HTTP_MAX_CONNECTIONS: positiveInt(10_000),
  MAX_PAYLOAD_BYTES: positiveInt(64 * 1024),
  MAX_HEADERS_BYTES: positiveInt(16 * 1024),
  MAX_ACTIVE_CRONS: positiveInt(1000),
  MAX_PENDING_EVENTS: positiveInt(1_000_000),
  MAX_PENDING_BYTES: positiveInt(1024 ** 3),
  MIN_CRON_INTERVAL: duration('1s').refine((ms) => ms >= 1000, 'must be at least 1s'),
  RATE_LIMIT_PER_SECOND: positiveInt(100),
  RATE_LIMIT_BURST: positiveInt(200),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  CORS_ORIGINS: commaList((origins) => origins.map(originProblem).find((problem) => problem !== undefined)),
  EVENT_RETENTION: retention('30d'),
  MAX_API_KEYS: positiveInt(100),
  MAX_TEAMS_PER_USER: positiveInt(20),
  SIGNUP: z.enum(['open', 'invite', 'closed']).default('open'),
  // The origin people open the dashboard at: the command line prints links to it.
  PUBLIC_URL: z
    .string()
    .superRefine((value, ctx) => {
      const problem = /^https?:\/\//i.test(value)
        ? originProblem(value)
        : 'must be an http(s) origin such as https://hooks.example.com';
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .optional(),
  // OpenTelemetry's own names, so that what a collector's docs say works here too.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .superRefine((value, ctx) => {
      const problem = otlpEndpointProblem(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const { headers, problem } = parseOtlpHeaders(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      return headers;
    }),
  OTEL_SERVICE_NAME: z.string().min(1).default('webhook-scheduler'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});

/** Why a CORS_ORIGINS entry is no origin a browser sends (scheme, host and port, nothing else). */
function originProblem(origin: string): string | undefined {
  if (origin === '*') return undefined;
  const exact = URL.canParse(origin) ? new URL(origin).origin : 'null';
  if (exact === origin) return undefined;
  const hint = exact === 'null' ? '' : ` (did you mean ${exact}?)`;
  return `"${origin}" is not an origin such as https://app.example.com: scheme, host and port only${hint}`;
}

/** Where the service keeps its data: an external PostgreSQL, or an embedded one under `dataDir`. */
export type DatabaseTarget = { kind: 'external'; url: string } | { kind: 'embedded'; dataDir: string };

/** How long the HTTP server waits for slow clients, and how many connections it holds at once. */
export interface HttpLimits {
  /** A client must have sent the request line and headers within this; then 408 and closed. */
  headersTimeoutMs: number;
  /** A client must have sent the whole request, body included, within this; then 408 and closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are closed as soon as they are accepted. */
  maxConnections: number;
}

/** The service's configuration, parsed once from the environment. */
export interface Config {
  port: number;
  host: string;
  http: HttpLimits;
  database: DatabaseTarget;
  databasePoolSize: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  webhook: {
    timeoutMs: number;
    allowPrivateTargets: boolean;
    allowedHosts: string[];
  };
  missedEventToleranceMs: number;
  /** The limits of every team without an override of its own (`teams limits`). */
  teamLimits: TeamLimits;
  /** `/metrics` answers only `Authorization: Bearer <token>` when set. */
  metricsToken: string | undefined;
  /** Serves `/metrics` on this port only (not on the API port) when set. */
  metricsPort: number | undefined;
  /** Which proxies' X-Forwarded-For/-Proto to believe: the client address and HTTPS detection follow it. */
  trustProxy: boolean | number | string;
  /** Origins whose pages may call /api/v1 (CORS); `*` is any; empty (the default) turns CORS off. */
  corsOrigins: string[];
  accounts: AccountPolicy;
  /** Traces, exported only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (undefined: none at all). */
  tracing: TracingConfig | undefined;
  scheduler: {
    /** Most webhook calls in flight in one scheduler process. */
    maxInFlight: number;
    /** Most calls of one team in flight in one scheduler process. */
    teamMaxInFlight: number;
    /** Most calls to one origin (`webhookOrigin`) in flight across all scheduler processes. */
    destinationMaxInFlight: number;
    /** Consecutive failed calls of a team to an origin that open its circuit. */
    circuitFailures: number;
    /** Timer jobs per occupied second: how many scheduler processes can share one busy second. */
    slotShards: number;
    /** How far ahead a cron's occurrences exist as pending events (at least the next one). */
    cronHorizonMs: number;
    /** A claim lasts the webhook timeout plus this; then a dead worker's attempt is delivered again. */
    leaseGraceMs: number;
  };
}

/** Who may create an account, how many teams a user may be in, and where the links people get point. */
export interface AccountPolicy {
  signUp: SignUpMode;
  maxTeamsPerUser: number;
  /** The dashboard's origin, for the links the command line prints (password resets, new accounts). */
  publicUrl: string;
}

/** Where a service listening on `host:port` is reached from the same machine. */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** A configuration that cannot be used, with one line per bad key. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment into a Config, or throws a ConfigError listing every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  // Node refuses to start a server whose headers timeout is longer than its request timeout.
  if (e.HTTP_HEADERS_TIMEOUT > e.HTTP_REQUEST_TIMEOUT) {
    throw new ConfigError(['HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_REQUEST_TIMEOUT']);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    },
    database: e.DATABASE_URL
      ? { kind: 'external', url: e.DATABASE_URL }
      : { kind: 'embedded', dataDir: path.resolve(e.DATA_DIR) },
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webhook: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      allowedHosts: e.WEBHOOK_ALLOWED_HOSTS,
    },
    missedEventToleranceMs: e.MISSED_EVENT_TOLERANCE,
    teamLimits: {
      max_payload_bytes: e.MAX_PAYLOAD_BYTES,
      max_headers_bytes: e.MAX_HEADERS_BYTES,
      max_active_crons: e.MAX_ACTIVE_CRONS,
      max_pending_events: e.MAX_PENDING_EVENTS,
      max_pending_bytes: e.MAX_PENDING_BYTES,
      min_cron_interval_ms: e.MIN_CRON_INTERVAL,
      requests_per_second: e.RATE_LIMIT_PER_SECOND,
      request_burst: e.RATE_LIMIT_BURST,
      event_retention_ms: e.EVENT_RETENTION,
      max_api_keys: e.MAX_API_KEYS,
    },
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    accounts: {
      signUp: e.SIGNUP,
      maxTeamsPerUser: e.MAX_TEAMS_PER_USER,
      publicUrl: e.PUBLIC_URL ?? localUrl(e.HOST, e.PORT),
    },
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          tracesUrl: otlpTracesUrl(e.OTEL_EXPORTER_OTLP_ENDPOINT),
          headers: e.OTEL_EXPORTER_OTLP_HEADERS,
          serviceName: e.OTEL_SERVICE_NAME,
          sampleRatio: e.OTEL_TRACES_SAMPLER_ARG,
        }
      : undefined,
    scheduler: {
      maxInFlight: e.DELIVERY_CONCURRENCY,
      teamMaxInFlight: e.TEAM_MAX_IN_FLIGHT ?? Math.max(1, Math.floor(e.DELIVERY_CONCURRENCY / 4)),
      destinationMaxInFlight: e.DESTINATION_MAX_IN_FLIGHT,
      circuitFailures: e.CIRCUIT_FAILURES,
      slotShards: e.SLOT_SHARDS,
      cronHorizonMs: e.CRON_HORIZON,
      leaseGraceMs: e.LEASE_GRACE,
    },
  };
}

function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}
