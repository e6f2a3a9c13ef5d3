import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type RequestHandler, type Router } from 'express';
import type { Registry } from 'prom-client';
import { bearerToken } from '../teams/api-key.rules.js';

/** Who may read `/metrics`, and whether this router serves it at all. */
export interface MetricsAccess {
  /** Serve `/metrics` here (false when it has a port of its own). */
  serve: boolean;
  /** `METRICS_TOKEN`: only `Authorization: Bearer <token>` may read it when set. */
  token: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the token (compared in constant time). */
function hasToken(authorization: string | undefined, token: string): boolean {
  const sent = bearerToken(authorization);
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** Prometheus metrics, behind the token when one is configured. */
export function metricsRoute(registry: Registry, token: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (token !== undefined && !hasToken(req.get('authorization'), token)) {
      res.setHeader('www-authenticate', 'Bearer');
      res.status(401).json({
        error: { code: 'UNAUTHORIZED', message: 'Unauthorized. Invalid or missing metrics token.' },
      });
      return;
    }
    registry.metrics().then((text) => {
      res.type(registry.contentType).send(text);
    }, next);
  };
}

/** Liveness, readiness and Prometheus metrics: served by every role. */
export function opsRoutes(deps: {
  isReady: () => Promise<boolean>;
  registry: Registry;
  metrics?: MetricsAccess;
}): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res, next) => {
    deps.isReady().then((ready) => {
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
    }, next);
  });
  const metrics = deps.metrics ?? { serve: true, token: undefined };
  if (metrics.serve) router.get('/metrics', metricsRoute(deps.registry, metrics.token));
  return router;
}
