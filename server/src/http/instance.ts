// Which instance answered (deps.instanceId), told on every answer: behind a load balancer several
// instances answer one address (README "Several instances"), and an operator, a test or the
// cluster benchmark reads this header to see the spread; the lease rows name the same id.
import type { MiddlewareHandler } from 'hono';

export const INSTANCE_HEADER = 'X-Zapdesk-Instance';

/**
 * Sets the header after the handler, so error answers (onError) carry it too; on the answer's own
 * headers, since c.header() on a finished answer makes Hono copy it (http/cors.ts).
 */
export const instanceHeader =
  (instanceId: string): MiddlewareHandler =>
  async (c, next) => {
    await next();
    c.res.headers.set(INSTANCE_HEADER, instanceId);
  };
