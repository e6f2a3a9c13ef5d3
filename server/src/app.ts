import { RequestContext } from '@mikro-orm/postgresql';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { UNAUTHORIZED_MESSAGE, contract } from '@webhook-scheduler/contract';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { Authenticate } from './auth/key-authenticator.js';
import { cronsRouter } from './crons/crons.router.js';
import { AppError } from './errors.js';
import { eventsRouter } from './events/events.router.js';
import type { RouteDeps } from './http/deps.js';
import { docsRoutes } from './http/docs.router.js';
import { errorHandler, notFound } from './http/errors.middleware.js';
import { jsonBody } from './http/json-body.middleware.js';
import { opsRoutes } from './http/ops.router.js';
import { requestLog } from './http/request-log.middleware.js';
import { toValidationError } from './http/validation.js';

export interface AppDeps extends RouteDeps {
  logger: Logger;
  authenticate: Authenticate;
  bodyLimitBytes: number;
  /** Whether the database answers and the process is not stopping; /readyz reports it. */
  isReady: () => Promise<boolean>;
  registry: Registry;
}

function bearerAuth(authenticate: Authenticate, now: () => Date): RequestHandler {
  return (req, _res, next) => {
    authenticate(req.get('authorization'), now()).then((auth) => {
      if (!auth) {
        next(new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE));
        return;
      }
      req.auth = auth;
      next();
    }, next);
  };
}

/** The HTTP application: health, docs, and the authenticated /api/v1 routes. Does not listen. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLog(deps.logger));
  // HSTS and upgrade-insecure-requests belong to the TLS-terminating proxy, not to a plain-HTTP service.
  app.use(helmet({ hsts: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));

  app.use(opsRoutes(deps));

  const docs = docsRoutes();
  app.use(docs.openApi);
  app.use('/docs', docs.reference);
  app.get('/', (_req, res) => res.redirect('/docs'));

  app.use('/api/v1', bearerAuth(deps.authenticate, deps.now), ...jsonBody(deps.bodyLimitBytes));
  app.use('/api/v1', (_req, _res, next) => RequestContext.create(deps.orm.em, next));

  const s = initServer();
  createExpressEndpoints(
    contract,
    s.router(contract, { crons: cronsRouter(deps), events: eventsRouter(deps) }),
    app,
    {
      jsonQuery: false,
      responseValidation: false,
      requestValidationErrorHandler: (error, _req, _res, next) => next(toValidationError(error)),
    },
  );

  app.use(notFound);
  app.use(errorHandler);
  return app;
}
