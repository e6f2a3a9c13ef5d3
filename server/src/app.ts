import { RequestContext } from '@mikro-orm/postgresql';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { type ValidationIssue, contract, dashboardContract } from '@webhook-scheduler/contract';
import express, { type Express, type IRouter } from 'express';
import helmet from 'helmet';
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import { apiAuth } from './http/api-auth.middleware.js';
import type { Authenticate } from './auth/key-authenticator.js';
import { cronRequestIssues } from './crons/cron.rules.js';
import { cronsRouter } from './crons/crons.router.js';
import { destinationsRouter } from './destinations/destinations.router.js';
import { insightsRouter } from './dashboard/insights.router.js';
import { invitesRouter } from './dashboard/invites.router.js';
import { keysRouter, signingSecretRouter } from './dashboard/keys.router.js';
import { overviewRouter } from './dashboard/overview.router.js';
import { sessionRouter } from './dashboard/session.router.js';
import { tracingRouter } from './dashboard/tracing.router.js';
import { spaRoutes } from './dashboard/spa.router.js';
import { alertsRouter, limitsRouter, membersRouter, teamsRouter } from './dashboard/teams.router.js';
import { batchRequestIssues, eventRequestIssues } from './events/event.rules.js';
import { eventsRouter } from './events/events.router.js';
import type { RouteDeps } from './http/deps.js';
import { cors } from './http/cors.middleware.js';
import { docsRoutes } from './http/docs.router.js';
import { errorHandler, notFound } from './http/errors.middleware.js';
import { jsonBody, jsonBodyBySize } from './http/json-body.middleware.js';
import { dashboardRateLimit, rateLimit } from './http/rate-limit.middleware.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { type MetricsAccess, opsRoutes } from './http/ops.router.js';
import { requestLog } from './http/request-log.middleware.js';
import { toValidationError } from './http/validation.js';
import {
  PUBLIC_BODY_LIMIT_BYTES,
  isPublicDashboardRoute,
  loadSession,
  requireSession,
} from './sessions/session.middleware.js';

/** Express's `trust proxy` setting: which proxies' X-Forwarded-* headers to believe. */
export type TrustProxy = boolean | number | string;

export interface AppDeps extends RouteDeps {
  logger: Logger;
  authenticate: Authenticate;
  bodyLimitBytes: number;
  /** Whether the database answers and the process is not stopping; /readyz reports it. */
  isReady: () => Promise<boolean>;
  registry: Registry;
  /** Decides the client address (sign-in limits) and whether a request came over HTTPS (Secure cookies). */
  trustProxy: TrustProxy;
  /** The built dashboard's directory; undefined serves a page saying it is not built. */
  dashboardDir: string | undefined;
  /** This process's share of every key's request rate limit. */
  rateLimiter: RateLimiter;
  /** Whether /metrics is served on this app and behind which token (served, open, by default). */
  metrics?: MetricsAccess;
  /** Origins whose pages may call /api/v1; none turns CORS off. */
  corsOrigins: readonly string[];
  /** One span per request when traces are exported; undefined adds nothing to a request. */
  tracing?: express.RequestHandler | undefined;
}

const s = initServer();

type RouteRules = (sent: { body: unknown; query: unknown }, now: Date) => ValidationIssue[];

// The business rules of a route also run on a request its contract refused, so that one 400 names
// every problem (the services run them again on the requests that pass).
const RULES = new Map<AppRoute, RouteRules>([
  [contract.crons.create, (sent) => cronRequestIssues(sent.body)],
  [contract.crons.update, (sent) => cronRequestIssues(sent.body)],
  [contract.crons.patch, (sent) => cronRequestIssues(sent.body)],
  [contract.events.create, (sent, now) => eventRequestIssues(sent.body, now)],
  [contract.events.update, (sent, now) => eventRequestIssues(sent.body, now)],
  [contract.events.createMany, (sent, now) => batchRequestIssues(sent.body, now)],
  [dashboardContract.insights.cronPreview, (sent) => cronRequestIssues(sent.query)],
]);

function endpoints<T extends AppRouter>(
  app: IRouter,
  router: T,
  implementation: Parameters<typeof s.router<T>>[1],
  now: () => Date,
) {
  createExpressEndpoints(router, s.router(router, implementation), app, {
    jsonQuery: false,
    responseValidation: false,
    requestValidationErrorHandler: (error, req, _res, next) => {
      const ruleIssues = RULES.get(req.tsRestRoute)?.(req, now()) ?? [];
      next(toValidationError(error, ruleIssues));
    },
  });
}

/** The HTTP application: health, docs, the /api/v1 API, the dashboard and its API. Does not listen. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  if (deps.tracing) app.use(deps.tracing);
  app.use(requestLog(deps.logger));
  // HSTS and upgrade-insecure-requests belong to the TLS-terminating proxy, not to a plain-HTTP service.
  app.use(helmet({ hsts: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));

  app.use(opsRoutes(deps));
  // Before the docs router too, so that a page may also fetch /api/v1/openapi.json.
  if (deps.corsOrigins.length > 0) app.use('/api/v1', cors(deps.corsOrigins));
  const docs = docsRoutes();
  app.use(docs.openApi);
  app.use('/docs', docs.reference);

  const withContext: express.RequestHandler = (_req, _res, next) => RequestContext.create(deps.orm.em, next);
  const limits = { limiter: deps.rateLimiter, teamLimits: deps.teamLimits, now: deps.now };
  app.use('/api/v1', apiAuth(deps), rateLimit(limits), ...jsonBody(deps.bodyLimitBytes), withContext);
  const dashboardBody = jsonBodyBySize(isPublicDashboardRoute, PUBLIC_BODY_LIMIT_BYTES, deps.bodyLimitBytes);
  app.use(
    '/api/dashboard',
    loadSession(deps),
    dashboardRateLimit(limits),
    requireSession,
    dashboardBody,
    withContext,
  );

  endpoints(
    app,
    contract,
    { crons: cronsRouter(deps), events: eventsRouter(deps), destinations: destinationsRouter(deps) },
    deps.now,
  );
  endpoints(
    app,
    dashboardContract,
    {
      session: sessionRouter(deps),
      teams: teamsRouter(deps),
      members: membersRouter(deps),
      keys: keysRouter(deps),
      signingSecret: signingSecretRouter(deps),
      insights: insightsRouter(deps),
      limits: limitsRouter(deps),
      alerts: alertsRouter(deps),
      invites: invitesRouter(deps),
      tracing: tracingRouter(deps),
      overview: overviewRouter(deps),
    },
    deps.now,
  );

  app.use(spaRoutes(deps.dashboardDir));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
