// The ceiling on request bodies, without building a WHATWG Request for every request.
//
// Hono's bodyLimit looks at `c.req.raw.body` first. Under @hono/node-server that one property makes
// the adapter build a full Request for the call (undici's Request, an AbortSignal, a web stream over
// the socket), bodiless GETs included, and the body is then read through that stream instead of
// straight from the socket: about a twentieth of the server's time under a burst of small pushes.
// A body's size is declared by its headers (RFC 9112 §6.3): no Content-Length and no
// Transfer-Encoding means no body; a Content-Length is checked as it stands (Node's parser never
// hands over more bytes than it declares). Only a chunked body, whose size is known once read, and a
// request that did not come from a socket (`app.request()` in tests) go through Hono's bodyLimit.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function declaredBodyLimit(maxSize: number, onError: () => never): MiddlewareHandler {
  const counting = bodyLimit({ maxSize, onError });
  return (c, next) => {
    const fromSocket = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if (!fromSocket || chunked) return counting(c, next);
    const length = c.req.header('content-length');
    if (length !== undefined && Number(length) > maxSize) onError();
    return next();
  };
}
