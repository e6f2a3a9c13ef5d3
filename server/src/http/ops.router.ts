import express, { type Router } from 'express';
import type { Registry } from 'prom-client';

/** Liveness, readiness and Prometheus metrics: served by every role. */
export function opsRoutes(deps: { isReady: () => Promise<boolean>; registry: Registry }): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res, next) => {
    deps.isReady().then((ready) => {
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
    }, next);
  });
  router.get('/metrics', (_req, res, next) => {
    deps.registry.metrics().then((text) => {
      res.type(deps.registry.contentType).send(text);
    }, next);
  });
  return router;
}
