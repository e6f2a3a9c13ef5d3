import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { choosePrecompressed, findPrecompressed, labelPrecompressed } from './precompressed.js';

const require = createRequire(import.meta.url);

/** Where the built dashboard is, or undefined when it was not built. */
export function builtDashboardDir(): string | undefined {
  try {
    return path.dirname(require.resolve('@webhook-scheduler/dashboard/index.html'));
  } catch {
    return undefined;
  }
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Webhook Scheduler</title>
<p>The dashboard is not built. Run <code>npm run build</code>, then restart the service.
The API reference is at <a href="/docs">/docs</a>.</p>\n`;

/**
 * The dashboard's static assets, and its index.html for every other GET outside /api, so that
 * client-side routes survive a reload. Hashed assets are cached for a year; index.html never is.
 * Files built with brotli and gzip copies are sent compressed to the clients that accept it.
 */
export function spaRoutes(dir: string | undefined): Router {
  const router = express.Router();
  if (dir) {
    const files = { index: false, setHeaders: labelPrecompressed };
    router.use(choosePrecompressed(findPrecompressed(dir)));
    router.use(
      '/assets',
      express.static(path.join(dir, 'assets'), { ...files, immutable: true, maxAge: '1y' }),
    );
    router.use(express.static(dir, { ...files, maxAge: '1h' }));
  }
  router.use((req, res, next) => {
    // A missing asset or API route is a 404, not the page: a stale tab must not run HTML as a script.
    const isApi = req.path === '/api' || req.path.startsWith('/api/');
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApi || req.path.startsWith('/assets/')) {
      next();
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    if (dir) res.sendFile(path.join(dir, 'index.html'));
    else res.status(503).type('html').send(NOT_BUILT);
  });
  return router;
}
