// CORS for the web app's origins (config WEB_ORIGINS and the local web port), with credentials.
// Hono's cors() touched the answer before the handler ran and set a header after it, and each
// touch of a finished answer makes Hono copy it (and @hono/node-server build a real WHATWG Response
// to copy from): three copies per request, 6% of the server's time in the outbox benchmark. Here
// the headers go onto the handler's own answer once it is made, with no copy.
import type { MiddlewareHandler } from 'hono';

const ALLOW_METHODS = 'GET,HEAD,PUT,POST,DELETE,PATCH';

export function corsFor(isAllowed: (origin: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin') ?? '';
    const allowed = origin !== '' && isAllowed(origin);
    if (c.req.method === 'OPTIONS') {
      // A preflight: the methods, and the request headers it asks for, echoed.
      const headers = new Headers({ 'Access-Control-Allow-Credentials': 'true', 'Access-Control-Allow-Methods': ALLOW_METHODS, Vary: 'Origin' });
      if (allowed) headers.set('Access-Control-Allow-Origin', origin);
      const asked = c.req.header('access-control-request-headers');
      if (asked) {
        headers.set('Access-Control-Allow-Headers', asked.split(',').map((h) => h.trim()).join(','));
        headers.append('Vary', 'Access-Control-Request-Headers');
      }
      return new Response(null, { status: 204, headers });
    }
    await next();
    const headers = c.res.headers;
    if (allowed) headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Allow-Credentials', 'true');
    headers.append('Vary', 'Origin');
  };
}
