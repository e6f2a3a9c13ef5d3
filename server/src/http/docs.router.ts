import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { absolutePath } from 'swagger-ui-dist';

const require = createRequire(import.meta.url);
const openApiPath = require.resolve('@webhook-scheduler/docs/openapi.json');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Webhook Scheduler API reference</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true });\n`;

/** The OpenAPI document, and a reference page rendered from it with Swagger UI's npm assets. */
export function docsRoutes(): { openApi: Router; reference: Router } {
  const openApi = express.Router();
  openApi.get('/api/v1/openapi.json', (_req, res) => res.sendFile(openApiPath));

  const reference = express.Router();
  reference.get('/', (_req, res) => res.type('html').send(PAGE));
  reference.get('/init.js', (_req, res) => res.type('js').send(INIT));
  reference.use('/assets', express.static(path.resolve(absolutePath()), { index: false, maxAge: '1d' }));
  return { openApi, reference };
}
