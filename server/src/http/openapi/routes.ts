// The API describes itself: /openapi.json (generated from the route documents) and /docs, a reference
// page whose assets come from the swagger-ui-dist package on this machine, never from a CDN.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { buildOpenApiDocument } from './document.ts';

const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files /docs serves, with their types: nothing else of the package's folder is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// The page's own script is a file, not inline, so a strict Content-Security-Policy holds.
const INIT_JS = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>zapdesk API reference</title>
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png">
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <style>body { margin: 0; background: #fafafa; } .swagger-ui .info { margin: 32px 0 16px; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:";

export function openApiRoutes() {
  // Built once: the routes do not change while the server runs.
  let document: Record<string, unknown> | undefined;
  const cache = new Map<string, Buffer>();
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      document ??= buildOpenApiDocument();
      return c.json({ ...document, servers: [{ url: new URL(c.req.url).origin }] });
    })
    .get('/docs', (c) => {
      c.header('Content-Security-Policy', CSP);
      return c.html(PAGE);
    })
    .get('/docs/:asset', async (c) => {
      const name = c.req.param('asset');
      if (name === 'init.js') return c.body(INIT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      const type = ASSETS[name];
      if (!type) return c.notFound();
      let bytes = cache.get(name);
      if (!bytes) cache.set(name, (bytes = await readFile(path.join(assetDir, name))));
      return c.body(new Uint8Array(bytes), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    });
}
