// Serves the built web app (web/dist) on WEB_PORT from the API's process (DESIGN.md §1): hashed
// assets cached for a year and gzipped once, index.html for every other path (the SPA's routes),
// and the API address written into index.html so one build runs behind any API_URL.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Logger } from '../log.ts';

export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../../web/dist');
const API_URL_PLACEHOLDER = '__ZAPDESK_API_URL__';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

export type WebServerOptions = {
  port: number;
  /** The API's address as the browser reaches it; by default the page's own host name on `apiPort`. */
  apiUrl?: string | undefined;
  apiPort: number;
  distDir?: string;
  log: Logger;
};

export type WebServer = { url: string; port: number; close(): Promise<void> };

type Asset = { body: Buffer; gzip: Buffer | undefined; type: string };

/** The API address for one request: API_URL if set, else the same host the page was loaded from. */
export function apiUrlFor(req: IncomingMessage, opts: Pick<WebServerOptions, 'apiUrl' | 'apiPort'>): string {
  if (opts.apiUrl) return opts.apiUrl.replace(/\/+$/, '');
  const host = (req.headers.host ?? 'localhost').replace(/:\d+$/, '');
  return `http://${host}:${opts.apiPort}`;
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const dist = opts.distDir ?? WEB_DIST_DIR;
  const cache = new Map<string, Asset & { mtimeMs: number }>();

  // Only hits are cached (misses are unbounded), and by mtime: a rebuild while running is picked up.
  const load = (rel: string): Asset | null => {
    const file = path.join(dist, rel);
    // Only files inside dist: a path with ".." never escapes it.
    if (!file.startsWith(dist + path.sep) || !existsSync(file)) return null;
    const st = statSync(file);
    if (!st.isFile()) return null;
    const hit = cache.get(rel);
    if (hit && hit.mtimeMs === st.mtimeMs) return hit;
    const asset = { ...readAsset(file), mtimeMs: st.mtimeMs };
    cache.set(rel, asset);
    return asset;
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const asset = pathname === '/' ? null : load(path.normalize(pathname).replace(/^[/\\]+/, ''));
    if (asset) return send(req, res, asset, pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    // A missing hashed asset is a 404, not the app: a stale tab must see its chunk fail and reload.
    if (pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const index = load('index.html');
    if (!index) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('The web app is not built yet: run `npm run build --workspace web` (npm start does it for you).');
      return;
    }
    const html = index.body.toString('utf8').replace(API_URL_PLACEHOLDER, escapeAttr(apiUrlFor(req, opts)));
    send(req, res, { body: Buffer.from(html), gzip: undefined, type: index.type }, 'no-cache');
  };

  const server: Server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  if (!existsSync(path.join(dist, 'index.html'))) opts.log.warn('web bundle missing: run npm run build --workspace web', { dist });
  return {
    url: `http://localhost:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readAsset(file: string): Asset {
  const ext = path.extname(file).toLowerCase();
  const body = readFileSync(file);
  return { body, gzip: COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : undefined, type: TYPES[ext] ?? 'application/octet-stream' };
}

function send(req: IncomingMessage, res: ServerResponse, asset: Asset, cacheControl: string) {
  const gzip = asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? asset.gzip! : asset.body;
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': body.length,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
